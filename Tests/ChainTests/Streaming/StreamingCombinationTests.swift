import ChainTesting
import Chain
import Foundation
import Testing

/// Streams combined with the rest of the pipeline: retries before and after the first byte,
/// redirects, coalescing, the idle timeout against a slow consumer, and event-stream
/// reconnection's stop conditions.
@Suite("Streaming combinations", .timeLimit(.minutes(2)))
struct StreamingCombinationTests {
    @Test func aRetryBeforeTheStreamOpenedIsMade() async throws {
        let server = try MockServer()
        server.enqueue(.text("refused", status: 503))
        server.enqueue(MockResponse(body: Data(repeating: 0x61, count: 50_000), options: [.throttle(bytesPerSecond: 500_000)]))
        let chunks = streaming.url(server.url("/events")).retry(RetryPolicy(maximumRetries: 2, baseDelay: 0)).chunks()
        var body = Data()
        for try await chunk in chunks { body.append(chunk) }
        #expect(try await chunks.head.statusCode == 200)
        // The 503 was retried: no byte of it had been streamed.
        #expect(body == Data(repeating: 0x61, count: 50_000))
        #expect(server.requestCount == 2)
    }

    @Test func aRedirectIsFollowedBeforeTheStreamOpens() async throws {
        let target = "/stream/drip?chunks=4&size=100&interval-ms=0"
        let redirect = try TestServer.url("/redirect-to?url=\(target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
        let chunks = streaming.url(redirect).chunks()
        var total = 0
        for try await chunk in chunks { total += chunk.count }
        #expect(total == 400, "the 302's own body is not part of the stream")
        #expect(try await chunks.head.url.path == "/stream/drip")
    }

    @Test func identicalStreamsInFlightDoNotShareATransfer() async throws {
        let url = try TestServer.url("/stream/drip?chunks=20&size=1000&interval-ms=1")
        async let first = Self.count(streaming.url(url).chunks(bufferSize: 2048))
        async let second = Self.count(streaming.url(url).chunks(bufferSize: 2048))
        #expect(try await [first, second] == [20_000, 20_000])
    }

    private static func count(_ chunks: ResponseChunks) async throws(NetworkError) -> Int {
        var total = 0
        for try await chunk in chunks { total += chunk.count }
        return total
    }

    /// The consumer stops reading for longer than the idle timeout: the transfer is paused,
    /// which is the consumer's wait, not the server's silence.
    @Test func aConsumerSlowerThanTheIdleTimeoutDoesNotTimeOut() async throws {
        let chunks = streaming.url(try TestServer.url("/stream/drip?chunks=6&size=8192&interval-ms=0"))
            .timeouts(Timeouts(idle: 1)).chunks(bufferSize: 1024)
        var total = 0
        for try await chunk in chunks {
            if total == 0 { try? await Task.sleep(nanoseconds: 2_500_000_000) }  // a slow consumer, on purpose
            total += chunk.count
        }
        #expect(total == 6 * 8192)
    }

    @Test func theIdleTimeoutStillAppliesBetweenBytes() async throws {
        let chunks = streaming.url(try TestServer.url("/stream/drip?chunks=2&size=10&interval-ms=4000"))
            .timeouts(Timeouts(idle: 1)).chunks()
        var total = 0
        do throws(NetworkError) {
            for try await chunk in chunks { total += chunk.count }
            Issue.record("a 4 s silence passed a 1 s idle timeout")
        } catch {
            #expect(error.kind == .timedOut)
        }
        #expect(total == 10, "the first chunk arrived before the silence")
    }

    @Test func eventsRefuseAnotherContentType() async throws {
        let events = streaming.url(try TestServer.url("/stream/drip?chunks=2&size=10&interval-ms=0")).events()
        do throws(NetworkError) {
            for try await _ in events {}
            Issue.record("octets were read as events")
        } catch {
            #expect(error.kind == .invalidResponse)
            #expect(error.message.contains("text/event-stream"))
        }
    }

    @Test func eventsDoNotReconnectAfterARefusedStatus() async throws {
        let reconnections = Recorder<StreamReconnection>()
        let events = streaming.url(try TestServer.url("/status/500")).hook(Reconnections(recorder: reconnections))
            .events(reconnect: EventReconnection(initialDelay: 0.01))
        do throws(NetworkError) {
            for try await _ in events {}
            Issue.record("a 500 streamed")
        } catch {
            #expect(error.kind == .unacceptableStatus(500))
        }
        #expect(reconnections.values.isEmpty)
    }

    @Test func eventsGiveUpAfterTheFruitlessAttemptsAllowed() async throws {
        let reconnections = Recorder<StreamReconnection>()
        let events = streaming.url("http://127.0.0.1:9/events").hook(Reconnections(recorder: reconnections))
            .events(reconnect: EventReconnection(initialDelay: 0.01, maximumDelay: 0.02, maximumAttempts: 2))
        do throws(NetworkError) {
            for try await _ in events {}
            Issue.record("a closed port streamed")
        } catch {
            #expect(error.kind == .cannotConnect)
        }
        let reported = await reconnections.wait(for: 2)
        #expect(reported.map(\.attempt) == [1, 2])
        #expect(reported.map(\.delay) == [0.01, 0.02], "doubled, then capped")
        #expect(reported.allSatisfy { $0.error?.kind == .cannotConnect })
    }

    @Test func aStubbedAnswerStreamsAsOneChunk() async throws {
        let events = streaming.url(unreachableURL)
            .stub(Stub(headers: ["Content-Type": "text/event-stream"], body: Data("id: 1\ndata: stubbed\n\n".utf8)))
            .events(reconnect: .never)
        var received: [ServerSentEvent] = []
        for try await event in events { received.append(event) }
        #expect(received == [ServerSentEvent(id: "1", data: "stubbed")])
    }
}

private struct Reconnections: HTTPHook {
    let recorder: Recorder<StreamReconnection>
    func willReconnect(_ context: HookContext, reconnection: StreamReconnection) { recorder.append(reconnection) }
}
