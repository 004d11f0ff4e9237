import ChainTesting
import Chain
import Foundation
import Synchronization
import Testing

/// The streaming suites' own client: their streams are long-lived (drips, endless bodies, a
/// consumer slower than the idle timeout), and on the shared client they would hold the
/// per-host slots other suites' requests to the same sample server wait for.
let streaming = ChainConfiguration(client: HTTPClient())

/// Streamed responses against the sample server: chunks, lines, JSON lines, events with
/// reconnection, backpressure through libcurl's pause, cancellation, and the callback forms.
@Suite("Streaming", .timeLimit(.minutes(2)))
struct StreamingTests {
    private struct Item: Decodable, Sendable, Equatable {
        let index: Int
        let name: String
    }

    @Test func chunksDeliverTheWholeBodyAndTheHead() async throws {
        let chunks = streaming.url(try TestServer.url("/stream/drip?chunks=8&size=1000&interval-ms=2")).chunks()
        let head = try await chunks.head
        #expect(head.statusCode == 200)
        #expect(head.body.isEmpty)
        var total = 0
        var count = 0
        for try await chunk in chunks {
            total += chunk.count
            count += 1
        }
        #expect(total == 8000)
        #expect(count >= 2, "the body arrived as it was written, not at once")
    }

    @Test func aTinyBufferPausesAndResumesTheTransferWithoutLosingBytes() async throws {
        // Every 4 KiB chunk overfills a 1 KiB buffer: libcurl is paused after each one and
        // resumed by the reads, 50 times, and every byte arrives once, in order.
        let url = try TestServer.url("/stream/drip?chunks=50&size=4096&interval-ms=0")
        let streamed = streaming.url(url).chunks(bufferSize: 1024)
        var body = Data()
        for try await chunk in streamed { body.append(chunk) }
        let whole = try await streaming.url(url).data()
        #expect(body.count == 50 * 4096)
        #expect(body == whole)
    }

    @Test func aRefusedStatusFailsBeforeAnyChunkWithItsDecodedBody() async throws {
        let chunks = streaming.url(try TestServer.url("/user/999")).errorBody(APIError.self).chunks()
        var received = 0
        do throws(NetworkError) {
            for try await _ in chunks { received += 1 }
            Issue.record("a 404 streamed")
        } catch {
            #expect(error.kind == .unacceptableStatus(404))
            #expect(error.underlyingError is APIError)
            #expect(error.response?.body.isEmpty == false)
        }
        #expect(received == 0)
    }

    @Test func linesSplitOnLFAndCRLF() async throws {
        var lines: [String] = []
        for try await line in streaming.url(try TestServer.url("/stream/ndjson?count=4&blank-lines=1")).lines() {
            lines.append(line)
        }
        #expect(lines.filter { !$0.isEmpty }.count == 4)
        #expect(lines.first == #"{"index":1,"name":"item 1"}"#)
        #expect(lines.allSatisfy { !$0.contains("\r") && !$0.contains("\n") })
    }

    @Test func jsonLinesDecodeEachLine() async throws {
        var items: [Item] = []
        for try await item in streaming.url(try TestServer.url("/stream/ndjson?count=5")).jsonLines(Item.self) {
            items.append(item)
        }
        #expect(items == (1...5).map { Item(index: $0, name: "item \($0)") })
        // Blank lines (LF and CRLF) are skipped but counted: the records sit on odd lines.
        var spaced: [Int] = []
        for try await item in streaming.url(try TestServer.url("/stream/ndjson?count=5&blank-lines=1")).jsonLines(Item.self) {
            spaced.append(item.index)
        }
        #expect(spaced == [1, 3, 5, 7, 9])
    }

    @Test func aBadJSONLineFailsNamingItsNumber() async throws {
        var items: [Item] = []
        let lines = streaming.url(try TestServer.url("/stream/ndjson?count=5&bad-line=3")).jsonLines(Item.self)
        do throws(NetworkError) {
            for try await item in lines {
                items.append(item)
            }
            Issue.record("the bad line decoded")
        } catch {
            #expect(error.kind == .decodingFailed)
            #expect(error.message.hasPrefix("line 3:"), "\(error.message)")
        }
        #expect(items.map(\.index) == [1, 2])
    }

    @Test func eventsCarryIdsTypesAndMultiLineData() async throws {
        var events: [ServerSentEvent] = []
        for try await event in streaming.url(try TestServer.url("/stream/sse?count=3")).events(reconnect: .never) {
            events.append(event)
        }
        #expect(events.map(\.id) == ["1", "2", "3"])
        #expect(events.allSatisfy { $0.event == "tick" })
        #expect(events.first?.data == "tick 1\nline two")
    }

    @Test func eventsReconnectWithLastEventIDAndStopOn204() async throws {
        let reconnections = Recorder<StreamReconnection>()
        let url = try TestServer.url("/stream/sse?count=6&drop-after=2&retry=10&echo-last-id=1")
        var events: [ServerSentEvent] = []
        for try await event in streaming.url(url).hook(ReconnectRecorder(recorder: reconnections)).events() {
            events.append(event)
        }
        // Three connections of two events each, the later two opened by a `resumed` event
        // echoing the Last-Event-ID sent; then a fourth, with nothing left, answered 204.
        #expect(events.filter { $0.event == "tick" }.map(\.id) == ["1", "2", "3", "4", "5", "6"])
        #expect(events.filter { $0.event == "resumed" }.map(\.data) == ["2", "4"])
        let reported = await reconnections.wait(for: 3)
        #expect(reported.map(\.lastEventID) == ["2", "4", "6"])
        #expect(reported.allSatisfy { $0.delay == 0.01 })
    }

    @Test func breakingOutOfTheLoopCancelsTheTransfer() async throws {
        let ends = Recorder<NetworkError>()
        var count = 0
        for try await _ in streaming.url(try TestServer.url("/stream/endless?chunk=16384")).hook(FailureRecorder(recorder: ends)).chunks() {
            count += 1
            if count == 3 { break }
        }
        let failures = await ends.wait(for: 1)
        #expect(failures.first?.kind == .cancelled)
    }

    @Test func cancellingTheSwiftTaskCancelsTheStream() async throws {
        let url = try TestServer.url("/stream/endless?chunk=16384")
        let task = Task { () async throws -> Int in
            var count = 0
            for try await _ in streaming.url(url).chunks() {
                count += 1
                if count == 3 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        let result = await task.result
        guard case .failure(let error) = result else {
            Issue.record("the endless stream ended")
            return
        }
        #expect((error as? NetworkError)?.kind == .cancelled)
    }

    @Test func aStreamIsReadOnce() async throws {
        let chunks = streaming.url(try TestServer.url("/stream/drip?chunks=2&size=10&interval-ms=0")).chunks()
        for try await _ in chunks {}
        var second = chunks.makeAsyncIterator()
        await #expect(throws: NetworkError.self) { _ = try await second.next() }
    }

    @Test func theCallbackFormDeliversChunksInOrderThenCompletesOnce() async throws {
        let queue = DispatchQueue(label: "streaming.callbacks", attributes: .concurrent)
        let chunks = Recorder<Data>()
        let completions = Recorder<Result<HTTPResponse, NetworkError>>()
        streaming.url(try TestServer.url("/stream/drip?chunks=20&size=512&interval-ms=0")).queue(queue)
            .stream(bufferSize: 1024, onChunk: { chunks.append($0) }, completion: { completions.append($0) })
        let results = await completions.wait(for: 1)
        #expect(try results.first?.get().statusCode == 200)
        #expect(chunks.values.reduce(0) { $0 + $1.count } == 20 * 512)
        let whole = try await streaming.url(try TestServer.url("/stream/drip?chunks=20&size=512&interval-ms=0")).data()
        #expect(chunks.values.reduce(Data(), +) == whole)
    }

    @Test func cancellingTheCallbackFormEndsItWithCancelledOnce() async throws {
        let completions = Recorder<Result<HTTPResponse, NetworkError>>()
        let firstChunk = Trigger()
        let task = streaming.url(try TestServer.url("/stream/endless?chunk=4096"))
            .stream(onChunk: { _ in firstChunk.fire() }, completion: { completions.append($0) })
        firstChunk.set { task.cancel() }
        let results = await completions.wait(for: 1)
        #expect(results.first?.failure?.kind == .cancelled)
        #expect(completions.values.count == 1)
    }

    @Test func theEventCallbackFormCompletesAfterTheLastEvent() async throws {
        let events = Recorder<ServerSentEvent>()
        let completions = Recorder<Result<HTTPResponse, NetworkError>>()
        streaming.url(try TestServer.url("/stream/sse?count=4&retry=10"))
            .events(onEvent: { events.append($0) }, completion: { completions.append($0) })
        // The event form reads on a task: under ThreadSanitizer with the whole suite, each of
        // its turns on the pool can come seconds late.
        let results = await completions.wait(for: 1, timeout: 100)
        #expect(results.first?.failure == nil)
        #expect(events.values.map(\.id) == ["1", "2", "3", "4"])
    }

    // MARK: Request bodies from a stream

    private struct UploadAnswer: Decodable, Sendable {
        let bytes: Int
        let chunked: Bool
        let sha256: String
    }

    private static func chunks(count: Int, size: Int) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for index in 0..<count { continuation.yield(Data(repeating: UInt8(index % 251), count: size)) }
            continuation.finish()
        }
    }

    @Test func aStreamBodyOfUnknownLengthGoesChunked() async throws {
        let answer = try await streaming.url(try TestServer.url("/stream/upload")).method(.post)
            .body(stream: Self.chunks(count: 300, size: 10_000), length: nil)
            .value(UploadAnswer.self)
        #expect(answer.bytes == 3_000_000)
        #expect(answer.chunked)
        var expected = Data()
        for index in 0..<300 { expected.append(Data(repeating: UInt8(index % 251), count: 10_000)) }
        let reference = try await streaming.url(try TestServer.url("/stream/upload")).method(.post).body(expected)
            .value(UploadAnswer.self)
        #expect(answer.sha256 == reference.sha256)
    }

    @Test func aStreamBodyOfKnownLengthSendsContentLength() async throws {
        let answer = try await streaming.url(try TestServer.url("/stream/upload")).method(.post)
            .body(stream: Self.chunks(count: 10, size: 1000), length: 10_000)
            .value(UploadAnswer.self)
        #expect(answer.bytes == 10_000)
        #expect(!answer.chunked)
    }

    @Test func aStreamShorterThanItsLengthFails() async throws {
        let url = try TestServer.url("/stream/upload")
        do throws(NetworkError) {
            _ = try await streaming.url(url).method(.post)
                .body(stream: Self.chunks(count: 2, size: 100), length: 1000).data()
            Issue.record("a short body was sent")
        } catch {
            #expect(error.kind == .invalidRequest)
        }
    }

    @Test func anInputStreamBody() async throws {
        let data = Data((0..<200_000).map { UInt8($0 % 256) })
        let answer = try await streaming.url(try TestServer.url("/stream/upload")).method(.post)
            .body(inputStream: InputStream(data: data), length: nil).value(UploadAnswer.self)
        #expect(answer.bytes == 200_000)
        let reference = try await streaming.url(try TestServer.url("/stream/upload")).method(.post).body(data)
            .value(UploadAnswer.self)
        #expect(answer.sha256 == reference.sha256)
    }

    @Test func aStreamBodyIsNotSentAgainOnA307() async throws {
        let target = try TestServer.url("/stream/upload")
        let redirect = try TestServer.url("/redirect-to?status_code=307&url=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
        do throws(NetworkError) {
            _ = try await streaming.url(redirect).method(.post).body(stream: Self.chunks(count: 3, size: 100), length: nil).data()
            Issue.record("the 307 was followed")
        } catch {
            #expect(error.kind == .invalidRequest)
            #expect(error.message.contains("sent once"))
            #expect(error.response?.statusCode == 307)
        }
    }

    /// One `Request` value with a stream body sent twice at once: the body is read once, so one
    /// send gets all of it and the other fails at once — and does not stop the first.
    @Test func aStreamBodySentTwiceAtOnceFailsTheSecondOnly() async throws {
        let request = streaming.url(try TestServer.url("/stream/upload")).method(.post)
            .body(stream: Self.chunks(count: 200, size: 10_000), length: nil)
        async let first = request.delivery(UploadAnswer.self)
        async let second = request.delivery(UploadAnswer.self)
        let results = [await first, await second]
        #expect(results.compactMap(\.value).map(\.bytes) == [2_000_000])
        #expect(results.compactMap(\.error).map(\.kind) == [.invalidRequest])
    }

    @Test func aStreamBodyIsNeverRetried() async throws {
        // A PUT (idempotent) answered 503: a retry would send a second request.
        let server = try MockServer()
        server.enqueue(MockResponse(status: 503))
        do throws(NetworkError) {
            _ = try await streaming.url(server.url("/upload")).method(.put)
                .body(stream: Self.chunks(count: 1, size: 10), length: nil)
                .retry(RetryPolicy(maximumRetries: 3, baseDelay: 0)).data()
            Issue.record("the stream body was sent again")
        } catch {
            #expect(error.kind == .unacceptableStatus(503), "the first answer, not a retry's")
        }
        #expect(try await server.takeRequest().body.count == 10)
        #expect(server.requestCount == 1)
        // The same request with a Data body is retried, so the policy would have retried.
        server.enqueue(MockResponse(status: 503))
        server.enqueue(.text("retried"))
        let retried = try await streaming.url(server.url("/upload")).method(.put).body(Data("x".utf8))
            .retry(RetryPolicy(maximumRetries: 3, baseDelay: 0)).string()
        #expect(retried == "retried")
        #expect(server.requestCount == 3)
    }
}

private struct ReconnectRecorder: HTTPHook {
    let recorder: Recorder<StreamReconnection>
    func willReconnect(_ context: HookContext, reconnection: StreamReconnection) { recorder.append(reconnection) }
}

private struct FailureRecorder: HTTPHook {
    let recorder: Recorder<NetworkError>
    func didFail(_ context: HookContext, error: NetworkError) { recorder.append(error) }
}

