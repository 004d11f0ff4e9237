import Chain
import Dispatch
import Foundation
import SampleServer
import Synchronization
import Testing

/// Issue 8.1, "nothing leaks": a batch of failing, cancelled and streaming requests leaves no
/// socket, no upload or download file and no other descriptor open.
///
/// Defences covered: `CurlTransfer.cleanUp()` closes the upload and download descriptors and
/// frees the MIME body on every path (success, failure, cancel); the engine removes and
/// recycles every easy handle, so libcurl closes failed connections and keeps at most
/// `maximumIdleConnections` idle ones. Removing any of these leaves a descriptor per request
/// behind, which the counts below see.
@Suite("Resource leaks", .serialized, .timeLimit(.minutes(2)))
struct ResourceLeakTests {
    @Test func aBatchOfFaultsLeavesNoDescriptorsBehind() async throws {
        let directory = try temporaryDirectory("leaks")
        defer { try? FileManager.default.removeItem(at: directory) }
        let upload = directory.appendingPathComponent("upload.bin")
        try Data(repeating: 0x61, count: 256 * 1024).write(to: upload)

        let server = try SampleServer(port: 0)
        // One idle connection at most, so the pool's share of the count is known.
        let client = HTTPClient(configuration: HTTPClient.Configuration(
            maximumConnectionsPerHost: 8, maximumConcurrentRequestsPerHost: 8, maximumIdleConnections: 1))
        let rounds = 4

        // A first round opens what stays open for good (libcurl's and Foundation's own
        // descriptors, the loop thread's wakeup pair), so the baseline is taken after it.
        try await runBatch(client: client, server: server, directory: directory, upload: upload, round: 0)
        let before = OpenFiles.snapshot()
        for round in 1...rounds {
            try await runBatch(client: client, server: server, directory: directory, upload: upload, round: round)
        }
        server.stop()  // closes the server's side and joins its threads
        let after = OpenFiles.snapshot()

        // (Taken after the stop: the engine closes a transfer's files right after queueing its
        // completion, so a snapshot in the completion itself could still see them.)
        #expect(after.files(under: directory).isEmpty, "upload or download files left open: \(after.files(under: directory))")
        // The client may keep its one idle connection (which the stopped server has closed).
        let clientSockets = after.sockets(port: server.port)
        #expect(clientSockets.count <= 1, "sockets to the server left open: \(clientSockets)")
        // Every other suite runs in parallel in this process, so the total gets slack; a leak of
        // one descriptor per request would add 64 (4 rounds of 16 requests) here.
        #expect(after.count - before.count < 40, "descriptors: \(before.count) before, \(after.count) after")
    }

    /// Fifteen requests at once: faults, limits, a cancel mid-body, an upload from a file, a
    /// multipart file part, downloads to a file (with success, an HTTP error and a fault).
    private func runBatch(client: HTTPClient, server: SampleServer, directory: URL, upload: URL, round: Int) async throws {
        let base = server.baseURL.absoluteString
        func request(_ path: String) throws -> HTTPRequest {
            try HTTPRequest(base + path + (path.contains("?") ? "&" : "?") + "round=\(round)")
        }
        var requests: [HTTPRequest] = []
        for path in ["/fault/reset", "/fault/close-mid-body", "/fault/short-body", "/fault/bad-chunked",
                     "/fault/garbage-status", "/fault/no-response", "/redirect-loop"] {
            requests.append(try request(path))
        }
        var stall = try request("/fault/stall")
        stall.timeouts.idle = 1
        requests.append(stall)
        var bomb = try request("/gzip-bomb?size=\(4 << 20)")
        bomb.maximumResponseSize = 1 << 20
        requests.append(bomb)

        var fileUpload = try request("/post")
        fileUpload.method = .post
        fileUpload.body = .file(upload)
        requests.append(fileUpload)
        var failedUpload = try request("/fault/no-response")
        failedUpload.method = .post
        failedUpload.body = .file(upload)
        requests.append(failedUpload)
        var form = MultipartFormData()
        form.append(fileURL: upload, name: "file")
        var multipart = try request("/upload")
        multipart.method = .post
        multipart.body = .multipart(form)
        requests.append(multipart)

        var download = try request("/bytes/200000")
        download.download = DownloadOptions(destination: directory.appendingPathComponent("download-\(round).bin"))
        requests.append(download)
        var failedDownload = try request("/fault/close-mid-body")
        failedDownload.download = DownloadOptions(destination: directory.appendingPathComponent("broken-\(round).bin"))
        requests.append(failedDownload)

        let completions = Recorder<Result<HTTPResponse, NetworkError>>()
        for request in requests {
            client.send(request) { completions.append($0) }
        }

        // A transfer cancelled in the middle of its body, from another thread, as soon as its
        // first bytes arrive (an event, not a timer).
        let cancelled = Recorder<Result<HTTPResponse, NetworkError>>()
        let canceller = CancelOnce()
        let drip = try request("/drip?numbytes=400&duration=20")
        let task = client.send(drip, progress: { _ in DispatchQueue.global().async { canceller.cancel() } }) {
            cancelled.append($0)
        }
        canceller.set(task)

        let results = await completions.wait(for: requests.count)
        #expect(results.count == requests.count, "round \(round): \(results.count) of \(requests.count) completions")
        let cancelResult = await cancelled.wait(for: 1)
        #expect(cancelResult.first?.failure?.kind == .cancelled, "round \(round): \(cancelResult)")
    }
}

/// Cancels a task once asked to, whether the task or the request to cancel comes first.
final class CancelOnce: Sendable {
    private let state = Mutex<(task: HTTPTask?, requested: Bool)>((nil, false))

    func set(_ task: HTTPTask) {
        let now = state.withLock { state -> Bool in
            state.task = task
            return state.requested
        }
        if now { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state -> HTTPTask? in
            state.requested = true
            return state.task
        }
        task?.cancel()
    }
}
