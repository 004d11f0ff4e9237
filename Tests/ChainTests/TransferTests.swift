import Chain
import Foundation
import SampleServer
import Testing

/// The download terminal and the transfer modifiers (TLS, redirects, size limit, priority,
/// HTTP version), against the sample server.
@Suite("Downloads and transfer modifiers", .timeLimit(.minutes(2)))
struct TransferTests {
    private func download(_ request: Request, to destination: URL, resumesPartialFile: Bool = false,
                          maximumSize: Int64? = nil) async -> Result<URL, NetworkError> {
        await withCheckedContinuation { continuation in
            request.download(to: destination, resumesPartialFile: resumesPartialFile, maximumSize: maximumSize) {
                continuation.resume(returning: $0)
            }
        }
    }

    @Test("download: byte-identical, progress to the end, the old file replaced, no temporary file left")
    func downloadToAFile() async throws {
        let directory = try temporaryDirectory("download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        try Data("old".utf8).write(to: destination)
        let reports = Recorder<TransferProgress>()
        let request = Request.url(try TestServer.url("/bytes/2000000")).query(["seed": 7])
            .progress { reports.append($0) }
        let result = await download(request, to: destination)
        #expect(result.success == destination.standardizedFileURL)
        #expect(try Data(contentsOf: destination) == Data(SampleServer.deterministicBytes(count: 2_000_000, seed: 7)))
        #expect(reports.values.last?.completedBytes == 2_000_000)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file.bin"])
    }

    @Test("downloadDelivery: the file's URL with the response it came with")
    func downloadDeliveryCarriesTheResponse() async throws {
        let directory = try temporaryDirectory("download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        let request = Request.url(try TestServer.url("/bytes/70000"))
        let delivery = await withCheckedContinuation { continuation in
            request.downloadDelivery(to: destination) { continuation.resume(returning: $0) }
        }
        #expect(delivery.result.success == destination.standardizedFileURL)
        #expect(delivery.response?.statusCode == 200)
        #expect(delivery.response?.fileURL != nil)
        #expect(delivery.isFinal)
        #expect(try Data(contentsOf: destination).count == 70_000)
    }

    @Test("download failures: the status error, the old file untouched, nothing left behind")
    func downloadFailures() async throws {
        let directory = try temporaryDirectory("download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        try Data("old".utf8).write(to: destination)

        let notFound = await download(Request.url(try TestServer.url("/status/404")), to: destination)
        #expect(notFound.failure?.kind == .unacceptableStatus(404))
        let tooLarge = await download(Request.url(try TestServer.url("/bytes/50000")), to: destination, maximumSize: 1000)
        #expect(tooLarge.failure?.kind == .responseTooLarge)
        #expect(try Data(contentsOf: destination) == Data("old".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["file.bin"])

        let missing = await download(Request.url(try TestServer.url("/bytes/10")),
                                     to: directory.appendingPathComponent("missing/file.bin"))
        #expect(missing.failure?.kind == .fileIO)
        let invalid = await download(Request.url("http://[::1"), to: destination)
        #expect(invalid.failure?.kind == .invalidURL)
    }

    @Test("download resumes a partial file with a Range request")
    func downloadResumes() async throws {
        let directory = try temporaryDirectory("download")
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("file.bin")
        // A prefix the server would never send: only a real resume keeps it in front of the rest.
        let prefix = Data(repeating: 0xAB, count: 40_000)
        try prefix.write(to: destination)
        let whole = Data(SampleServer.deterministicBytes(count: 100_000, seed: 3))
        let request = Request.url(try TestServer.url("/bytes/100000")).query(["seed": 3])
        let result = await download(request, to: destination, resumesPartialFile: true)
        #expect(result.success == destination.standardizedFileURL)
        #expect(try Data(contentsOf: destination) == prefix + whole.dropFirst(40_000))
    }

    @Test("redirects: followed by default, delivered as they are with .none, capped with .follow(maximum:)")
    func redirectPolicies() async throws {
        let followed = await Request.url(try TestServer.url("/redirect/2")).callbackVoidResult()
        #expect(followed.success != nil)

        let unfollowedRequest = Request.url(try TestServer.url("/redirect/2")).redirects(.none).validate(.none)
        let unfollowed = await withCheckedContinuation { continuation in
            unfollowedRequest.responseDelivery(using: .data) { continuation.resume(returning: $0) }
        }
        #expect(unfollowed.response?.statusCode == 302)

        let capped = await Request.url(try TestServer.url("/redirect/3")).redirects(.follow(maximum: 1))
            .callbackVoidResult()
        #expect(capped.failure?.kind == .tooManyRedirects)
    }

    @Test("maximumResponseSize: a larger body fails with .responseTooLarge, a smaller one passes")
    func responseSizeLimit() async throws {
        let tooLarge = await Request.url(try TestServer.url("/bytes/5000")).maximumResponseSize(1000)
            .callbackVoidResult()
        #expect(tooLarge.failure?.kind == .responseTooLarge)
        let data = try await Request.url(try TestServer.url("/bytes/5000")).maximumResponseSize(5000).data()
        #expect(data.count == 5000)
    }

    @Test("TLS, priority and HTTP version reach the core request; the configuration's TLS is the default")
    func modifiersReachTheCoreRequest() throws {
        var configuration = try TestServer.configuration()
        configuration.tls = TLSOptions(caFile: URL(fileURLWithPath: "/etc/chain-test-ca.pem"))
        let base = configuration.url("/user/101")
        #expect(try base.httpRequest().tls.caFile?.path == "/etc/chain-test-ca.pem")
        #expect(try base.httpRequest().priority == .normal)
        #expect(try base.httpRequest().httpVersion == .automatic)

        let pinned = TLSOptions(pinnedPublicKey: "sha256//AAAA")
        let request = try base.tls(pinned).priority(.high).httpVersion(.http1_1).httpRequest()
        #expect(request.tls == pinned)
        #expect(request.priority == .high)
        #expect(request.httpVersion == .http1_1)
    }
}
