import CurlTransport
import Digest
import Foundation
import HTTPCore
import HTTPFeatures
import SampleServer
import Synchronization
import Testing

/// The engine against the real sample server on 127.0.0.1.
@Suite("Engine", .timeLimit(.minutes(2)))
struct EngineTests {
    let client = HTTPClient.shared

    // MARK: Basics

    @Test func getReturnsTheFinalResponseWithTimings() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.url("/get?a=1"))).get()
        #expect(response.statusCode == 200)
        #expect(response.httpVersion == .http1_1)
        #expect(response.mimeType == "application/json")
        #expect(response.timings.total > 0)
        #expect(response.timings.total >= response.timings.firstByte)
        let echo = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        #expect(echo?["method"] as? String == "GET")
        let headers = echo?["headers"] as? [String: Any]
        let userAgent = headers?.first { $0.key.lowercased() == "user-agent" }?.value as? String
        #expect(userAgent?.hasPrefix("Chain/") == true)
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete, "PROPFIND"])
    func methodsAndBodiesReachTheServer(method: HTTPMethod) async throws {
        var request = HTTPRequest(url: try TestServer.url("/anything"), method: method)
        request.body = .data(Data("hello=world".utf8))
        request.headers["Content-Type"] = "application/x-www-form-urlencoded"
        let response = try await client.result(request).get()
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(echo["method"] as? String == method.rawValue)
        #expect(echo["bodyLength"] as? Int == 11)
    }

    @Test func headRequestHasNoBody() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.url("/get"), method: .head)).get()
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
    }

    /// A transfer starts with a 1 KiB body buffer (`CurlTransfer.typicalBodyCapacity`), made on
    /// the sending thread; a larger `Content-Length` is reserved on the loop, and a chunked body
    /// (300-byte chunks here) grows as it comes. Every size around that first buffer must
    /// arrive whole and unchanged.
    @Test(arguments: [0, 1, 1023, 1024, 1025, 70_000])
    func bodiesAroundTheFirstBufferArriveIntact(size: Int) async throws {
        let expected = Data(SampleServer.deterministicBytes(count: size, seed: 5, offset: 0))
        for path in ["/bytes/\(size)?seed=5", "/stream-bytes/\(size)?seed=5&chunk_size=300"] {
            let response = try await client.result(HTTPRequest(url: TestServer.url(path))).get()
            #expect(response.statusCode == 200, "\(path)")
            #expect(response.body == expected, "\(path): \(response.body.count) of \(size) bytes")
        }
    }

    @Test func emptyPostSendsContentLengthZero() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.url("/post"), method: .post)).get()
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(echo["bodyLength"] as? Int == 0)
    }

    @Test func anyStatusIsAResponseForTheCore() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.url("/status/418"))).get()
        #expect(response.statusCode == 418)
    }

    @Test func completionRunsOnTheGivenQueueNeverTheLoopThread() async throws {
        let queue = DispatchQueue(label: "test.callbacks")
        let onQueue = Mutex<Bool?>(nil)
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            client.send(HTTPRequest(url: (try? TestServer.url("/get")) ?? URL(fileURLWithPath: "/")), queue: queue) { _ in
                dispatchPrecondition(condition: .onQueue(queue))
                onQueue.withLock { $0 = Thread.current.name != "chain.curl-loop" }
                continuation.resume()
            }
        }
        #expect(onQueue.withLock { $0 } == true)
    }

    @Test func gzipBodiesAreDecoded() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.url("/gzip"))).get()
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(try JSONSerialization.jsonObject(with: response.body) is [String: Any])
    }

    // MARK: Connections

    @Test func hundredSequentialGetsUseOneConnection() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            var newConnections = 0
            for index in 0..<100 {
                let response = try await client.result(HTTPRequest(url: server.baseURL.appendingPathComponent("get"))).get()
                #expect(response.statusCode == 200, "request \(index)")
                newConnections += response.timings.newConnections
            }
            #expect(server.acceptedConnections == 1)
            #expect(newConnections == 1)
        }
    }

    @Test func twoHundredRequestsInFlightAllComplete() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient(configuration: .init(maximumConnectionsPerHost: 16))
            let statuses = await withTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let url = server.baseURL.appendingPathComponent("anything/\(index)")
                        return (try? await client.result(HTTPRequest(url: url)).get().statusCode) ?? -1
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(server.acceptedConnections <= 16)
        }
    }

    // MARK: Cancellation and timeouts

    @Test func cancelFromAnotherThreadEndsPromptlyAndCallsBackOnce() async throws {
        let calls = Recorder<Result<HTTPResponse, NetworkError>>()
        let queue = DispatchQueue(label: "test.cancel")
        let started = ContinuousClock.now
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, NetworkError>, Never>) in
            let url = (try? TestServer.url("/delay/30")) ?? URL(fileURLWithPath: "/")
            let task = client.send(HTTPRequest(url: url), queue: queue) { result in
                calls.append(result)
                continuation.resume(returning: result)
            }
            Thread.detachNewThread { task.cancel(); task.cancel() }
        }
        #expect(result.failure?.kind == .cancelled)
        // `.cancelled` proves the transfer was cut short (the server's delay is 30 s); the
        // bound only catches a cancel that waited for the response, with room for sanitizers.
        #expect(ContinuousClock.now - started < .seconds(29))
        // Any late callback would be queued before this request's completion on the same queue.
        _ = await client.result(HTTPRequest(url: try TestServer.url("/get")), queue: queue)
        #expect(calls.values.count == 1)
    }

    @Test func cancelRightAfterSendingStillCallsBackOnce() async throws {
        let calls = Recorder<NetworkError.Kind?>()
        let queue = DispatchQueue(label: "test.cancel-early")
        for index in 0..<20 {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // A unique URL, so the request cannot join another test's transfer.
                let url = (try? TestServer.url("/get?early=\(index)&u=\(UUID().uuidString)")) ?? URL(fileURLWithPath: "/")
                let task = client.send(HTTPRequest(url: url), queue: queue) { result in
                    calls.append(result.failure?.kind)
                    continuation.resume()
                }
                task.cancel()
            }
        }
        _ = await client.result(HTTPRequest(url: try TestServer.url("/get")), queue: queue)
        #expect(calls.values.count == 20)
        // The loop thread normally has not started the transfer yet; a machine under load may
        // finish one first, which must then be an ordinary success.
        #expect(calls.values.allSatisfy { $0 == .cancelled || $0 == nil })
        #expect(calls.values.contains(.cancelled))
    }

    @Test func asyncCancellationCancelsTheTransfer() async throws {
        let url = try TestServer.url("/delay/10")
        let task = Task { try await client.response(for: HTTPRequest(url: url)) }
        task.cancel()
        let result = await task.result
        #expect((result.failure as? NetworkError)?.kind == .cancelled)
    }

    @Test func delayTripsTheTotalTimeout() async throws {
        var request = HTTPRequest(url: try TestServer.url("/delay/5"))
        request.timeouts.total = 0.5
        let result = await client.result(request)
        #expect(result.failure?.kind == .timedOut)
    }

    @Test func aStalledServerTripsTheIdleTimeout() async throws {
        var request = HTTPRequest(url: try TestServer.url("/fault/stall"))
        request.timeouts.idle = 1
        let result = await client.result(request)
        #expect(result.failure?.kind == .timedOut)
        #expect(result.failure?.message.contains("idle") == true)
    }

    // MARK: Faults

    @Test func aRefusedConnectionIsCannotConnect() async throws {
        // A port that was free a moment ago: bind, note it, close.
        let server = try SampleServer(port: 0)
        let url = server.baseURL.appendingPathComponent("get")
        server.stop()
        let result = await client.result(HTTPRequest(url: url))
        #expect(result.failure?.kind == .cannotConnect)
        #expect(result.failure?.curlCode == 7)
    }

    @Test func aTruncatedBodyIsNeverASuccess() async throws {
        for path in ["/fault/short-body", "/fault/close-mid-body"] {
            let result = await client.result(HTTPRequest(url: try TestServer.url(path)))
            #expect(result.failure?.kind == .truncatedResponse, "\(path)")
            // libcurl's error still carries the head that arrived, with every field.
            #expect(result.failure?.response?.statusCode == 200, "\(path)")
            #expect(result.failure?.response?.headers["Content-Length"] != nil, "\(path)")
            #expect(result.failure?.response?.headers["Content-Type"] == "application/octet-stream", "\(path)")
        }
    }

    @Test func aResetIsConnectionLostOrTruncated() async throws {
        let result = await client.result(HTTPRequest(url: try TestServer.url("/fault/reset")))
        let kind = try #require(result.failure?.kind)
        #expect(kind == .connectionLost || kind == .truncatedResponse)
    }

    @Test func theSizeLimitHoldsWhileBytesArrive() async throws {
        var request = HTTPRequest(url: try TestServer.url("/stream-bytes/1000000"))
        request.maximumResponseSize = 10_000
        let result = await client.result(request)
        #expect(result.failure?.kind == .responseTooLarge)
        // The error carries the response as far as it came, its head parsed on the callback
        // thread like a success's.
        #expect(result.failure?.response?.statusCode == 200)
        #expect(result.failure?.response?.headers["Content-Type"] == "application/octet-stream")
        #expect(result.failure?.response?.headers["Transfer-Encoding"] == "chunked")

        var announced = HTTPRequest(url: try TestServer.url("/bytes/1000000"))
        announced.maximumResponseSize = 10_000
        #expect(await client.result(announced).failure?.kind == .responseTooLarge)
    }

    // MARK: Schemes and redirects

    @Test func fileURLsAreRefused() async throws {
        let result = await client.result(HTTPRequest(url: URL(fileURLWithPath: "/etc/passwd")))
        #expect(result.failure?.kind == .unsupportedScheme)
        let ftp = await client.result(HTTPRequest(url: try #require(URL(string: "ftp://127.0.0.1/x"))))
        #expect(ftp.failure?.kind == .unsupportedScheme)
    }

    @Test func aRedirectToFileIsRefused() async throws {
        let url = try TestServer.url("/redirect-to?url=file:///etc/passwd")
        let result = await client.result(HTTPRequest(url: url))
        #expect(result.failure?.kind == .unsupportedScheme)
        #expect(result.success == nil)
    }

    @Test func redirectsAreFollowedAndOnlyTheFinalHeadersKept() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.url("/redirect/3"))).get()
        #expect(response.statusCode == 200)
        #expect(response.url.path == "/get")
        #expect(response.timings.redirectCount == 3)
        #expect(!response.headers.contains("Location"))
    }

    @Test func redirectLimitsAndPolicy() async throws {
        var limited = HTTPRequest(url: try TestServer.url("/redirect/3"))
        limited.redirectPolicy = .follow(maximum: 2)
        #expect(await client.result(limited).failure?.kind == .tooManyRedirects)

        #expect(await client.result(HTTPRequest(url: try TestServer.url("/redirect-loop"))).failure?.kind == .tooManyRedirects)

        var manual = HTTPRequest(url: try TestServer.url("/redirect/1"))
        manual.redirectPolicy = .none
        let response = try await client.result(manual).get()
        #expect(response.statusCode == 302)
        #expect(response.headers.contains("Location"))
    }

    // MARK: Hostile input

    @Test func headerInjectionIsRejectedBeforeSending() async throws {
        for headers: HTTPHeaders in [["X-A": "1\r\nX-Injected: 1"], ["X-A\nB": "1"], ["": "v"], ["X-A": "a\0b"]] {
            var request = HTTPRequest(url: try TestServer.url("/get"))
            request.headers = headers
            #expect(await client.result(request).failure?.kind == .invalidRequest)
        }
        var badMethod = HTTPRequest(url: try TestServer.url("/get"))
        badMethod.method = "GET /x HTTP/1.1\r\n"
        #expect(await client.result(badMethod).failure?.kind == .invalidRequest)
    }

    @Test func invalidURLStringsAreTypedErrors() {
        #expect(throws: NetworkError.self) { try HTTPRequest("not a url") }
        #expect(throws: NetworkError.self) { try HTTPRequest("http://") }
    }

    @Test func missingUploadFilesFailBeforeSending() async throws {
        let missing = URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString)")
        var request = HTTPRequest(url: try TestServer.url("/upload"), method: .post)
        request.body = .file(missing)
        #expect(await client.result(request).failure?.kind == .fileIO)
        var form = MultipartFormData()
        form.append(fileURL: missing, name: "f")
        request.body = .multipart(form)
        #expect(await client.result(request).failure?.kind == .fileIO)
    }

    // MARK: Files, multipart, progress

    @Test func a64MiBDownloadToAFileIsByteIdentical() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("download.bin")
        let size = 64 * 1024 * 1024
        var request = HTTPRequest(url: try TestServer.url("/bytes/\(size)?seed=7"))
        request.download = DownloadOptions(destination: destination)
        let response = try await client.result(request).get()
        #expect(response.fileURL == destination)
        #expect(response.body.isEmpty)
        try expectFile(destination, equalsDeterministicBytes: size, seed: 7)
    }

    @Test func aPartialDownloadResumesWithRange() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("resume.bin")
        let size = 300_000
        try Data(SampleServer.deterministicBytes(count: 100_000, seed: 3)).write(to: destination)
        var request = HTTPRequest(url: try TestServer.url("/bytes/\(size)?seed=3"))
        request.download = DownloadOptions(destination: destination, resumesPartialFile: true)
        let response = try await client.result(request).get()
        #expect(response.statusCode == 206)
        try expectFile(destination, equalsDeterministicBytes: size, seed: 3)
    }

    @Test func aFileUploadStreamsFromDisk() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("upload.bin")
        let bytes = Data(SampleServer.deterministicBytes(count: 3_000_000, seed: 9))
        try bytes.write(to: file)
        var request = HTTPRequest(url: try TestServer.url("/anything"), method: .put)
        request.body = .file(file)
        let response = try await client.result(request).get()
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(echo["method"] as? String == "PUT")
        #expect(echo["bodyLength"] as? Int == bytes.count)
        #expect(echo["bodySHA256"] as? String == SHA256.hexDigest(bytes))
    }

    @Test func multipartChecksumsMatch() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("photo.jpg")
        let fileBytes = Data(SampleServer.deterministicBytes(count: 2_500_000, seed: 5))
        try fileBytes.write(to: file)
        let note = Data("hello, 世界".utf8)

        var form = MultipartFormData()
        form.append("wiki", name: "username")
        form.append(note, name: "note", fileName: "note.txt", mimeType: "text/plain")
        form.append(fileURL: file, name: "photo", mimeType: "image/jpeg")
        var request = HTTPRequest(url: try TestServer.url("/upload"), method: .post)
        request.body = .multipart(form)
        let uploads = Recorder<TransferProgress>()
        let response = try await client.result(request, progress: { if $0.direction == .upload { uploads.append($0) } }).get()
        #expect(response.statusCode == 200)

        let object = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        let parts = try #require(object["parts"] as? [[String: Any]])
        #expect(parts.count == 3)
        #expect(parts[0]["name"] as? String == "username")
        #expect(parts[0]["sha256"] as? String == SHA256.hexDigest(Data("wiki".utf8)))
        #expect(parts[1]["filename"] as? String == "note.txt")
        #expect(parts[1]["sha256"] as? String == SHA256.hexDigest(note))
        #expect(parts[2]["filename"] as? String == "photo.jpg")
        #expect(parts[2]["contentType"] as? String == "image/jpeg")
        #expect(parts[2]["size"] as? Int == fileBytes.count)
        #expect(parts[2]["sha256"] as? String == SHA256.hexDigest(fileBytes))

        let sent = uploads.values.map(\.completedBytes)
        #expect(sent == sent.sorted())
        #expect((sent.last ?? 0) > Int64(fileBytes.count))
    }

    @Test func downloadProgressIsMonotonicAndEndsAtTheSize() async throws {
        let size = 5_000_000
        let reports = Recorder<TransferProgress>()
        let response = try await client.result(HTTPRequest(url: TestServer.url("/bytes/\(size)")),
                                               progress: { reports.append($0) }).get()
        #expect(response.body.count == size)
        let downloads = reports.values.filter { $0.direction == .download }
        let counts = downloads.map(\.completedBytes)
        #expect(!counts.isEmpty)
        #expect(counts == counts.sorted())
        #expect(Set(counts).count == counts.count)
        #expect(downloads.last?.completedBytes == Int64(size))
        #expect(downloads.last?.totalBytes == Int64(size))
    }

    /// The first report waits 50 ms from the start, so a short transfer reports once — the
    /// final report, which travels in the completion's block instead of a block of its own —
    /// although its body arrives in many chunks (reporting the first chunk at once gave two).
    /// The count is only checked when the whole call took under 50 ms, as it does on loopback.
    @Test func aShortTransferReportsOnceAtTheEnd() async throws {
        let reports = Recorder<TransferProgress>()
        let started = ContinuousClock.now
        let response = try await client.result(HTTPRequest(url: TestServer.url("/bytes/300000")),
                                               progress: { reports.append($0) }).get()
        let elapsed = ContinuousClock.now - started
        let downloads = reports.values.filter { $0.direction == .download }
        #expect(downloads.last?.completedBytes == Int64(response.body.count))
        if elapsed < .milliseconds(50) {
            #expect(downloads.count == 1, "reports: \(downloads)")
        }
    }

    private func expectFile(_ url: URL, equalsDeterministicBytes size: Int, seed: UInt64) throws {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var offset = 0
        let chunk = 4 * 1024 * 1024
        while offset < size {
            let expected = SampleServer.deterministicBytes(count: min(chunk, size - offset), seed: seed, offset: offset)
            let actual = try handle.read(upToCount: expected.count) ?? Data()
            guard actual == Data(expected) else {
                Issue.record("bytes differ in the chunk at offset \(offset)")
                return
            }
            offset += expected.count
        }
        #expect(try handle.read(upToCount: 1)?.isEmpty ?? true, "the file is longer than \(size)")
    }
}
