import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import SampleServer
import Testing

/// Cancellation, timeouts and server faults through the engine against the real sample server
/// on 127.0.0.1: each call ends with one typed completion.
@Suite("Engine: cancellation, timeouts and faults", .timeLimit(.minutes(2)))
struct EngineCancellationAndFaultTests {
    let client = HTTPClient.shared

    // MARK: Cancellation and timeouts

    @Test func cancelFromAnotherThreadEndsPromptlyAndCallsBackOnce() async throws {
        let calls = Recorder<Result<HTTPResponse, NetworkError>>()
        let queue = DispatchQueue(label: "test.cancel")
        let started = ContinuousClock.now
        let (result, ended) = await withCheckedContinuation {
            (continuation: CheckedContinuation<(Result<HTTPResponse, NetworkError>, ContinuousClock.Instant), Never>) in
            let url = (try? TestServer.endpoint("/delay/30")) ?? URL(fileURLWithPath: "/")
            let task = client.send(HTTPRequest(url: url), queue: queue) { result in
                calls.append(result)
                continuation.resume(returning: (result, .now))
            }
            Thread.detachNewThread { task.cancel(); task.cancel() }
        }
        #expect(result.failure?.kind == .cancelled)
        // `.cancelled` proves the transfer was cut short (the server's delay is 30 s); the
        // bound only catches a cancel that waited for the response, with room for sanitizers.
        // Taken in the completion: the test's task may resume much later on a busy pool.
        #expect(ended - started < .seconds(29))
        // Any late callback would be queued before this request's completion on the same queue.
        _ = await client.result(HTTPRequest(url: try TestServer.endpoint("/get")), queue: queue)
        #expect(calls.values.count == 1)
    }

    @Test func cancelRightAfterSendingStillCallsBackOnce() async throws {
        let calls = Recorder<NetworkError.Kind?>()
        let queue = DispatchQueue(label: "test.cancel-early")
        for index in 0..<20 {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // A unique URL, so the request cannot join another test's transfer.
                let url = (try? TestServer.endpoint("/get?early=\(index)&u=\(UUID().uuidString)")) ?? URL(fileURLWithPath: "/")
                let task = client.send(HTTPRequest(url: url), queue: queue) { result in
                    calls.append(result.failure?.kind)
                    continuation.resume()
                }
                task.cancel()
            }
        }
        _ = await client.result(HTTPRequest(url: try TestServer.endpoint("/get")), queue: queue)
        #expect(calls.values.count == 20)
        // The loop thread normally has not started the transfer yet; a machine under load may
        // finish one first, which must then be an ordinary success.
        #expect(calls.values.allSatisfy { $0 == .cancelled || $0 == nil })
        #expect(calls.values.contains(.cancelled))
    }

    @Test func asyncCancellationCancelsTheTransfer() async throws {
        let url = try TestServer.endpoint("/delay/10")
        let task = Task { try await client.response(for: HTTPRequest(url: url)) }
        task.cancel()
        let result = await task.result
        #expect((result.failure as? NetworkError)?.kind == .cancelled)
    }

    @Test func delayTripsTheTotalTimeout() async throws {
        var request = HTTPRequest(url: try TestServer.endpoint("/delay/5"))
        request.timeouts.total = 0.5
        let result = await client.result(request)
        #expect(result.failure?.kind == .timedOut)
    }

    @Test func aStalledServerTripsTheIdleTimeout() async throws {
        var request = HTTPRequest(url: try TestServer.endpoint("/fault/stall"))
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
            let result = await client.result(HTTPRequest(url: try TestServer.endpoint(path)))
            #expect(result.failure?.kind == .truncatedResponse, "\(path)")
            // libcurl's error still carries the head that arrived, with every field.
            #expect(result.failure?.response?.statusCode == 200, "\(path)")
            #expect(result.failure?.response?.headers["Content-Length"] != nil, "\(path)")
            #expect(result.failure?.response?.headers["Content-Type"] == "application/octet-stream", "\(path)")
        }
    }

    @Test func aResetIsConnectionLostOrTruncated() async throws {
        let result = await client.result(HTTPRequest(url: try TestServer.endpoint("/fault/reset")))
        let kind = try #require(result.failure?.kind)
        #expect(kind == .connectionLost || kind == .truncatedResponse)
    }

    @Test func theSizeLimitHoldsWhileBytesArrive() async throws {
        var request = HTTPRequest(url: try TestServer.endpoint("/stream-bytes/1000000"))
        request.maximumResponseSize = 10_000
        let result = await client.result(request)
        #expect(result.failure?.kind == .responseTooLarge)
        // The error carries the response as far as it came, its head parsed on the callback
        // thread like a success's.
        #expect(result.failure?.response?.statusCode == 200)
        #expect(result.failure?.response?.headers["Content-Type"] == "application/octet-stream")
        #expect(result.failure?.response?.headers["Transfer-Encoding"] == "chunked")

        var announced = HTTPRequest(url: try TestServer.endpoint("/bytes/1000000"))
        announced.maximumResponseSize = 10_000
        #expect(await client.result(announced).failure?.kind == .responseTooLarge)
    }
}
