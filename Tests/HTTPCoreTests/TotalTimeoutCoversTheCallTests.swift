import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// A request's total timeout covers the whole call — time queued behind the per-host cap,
/// every attempt, the retry delays between them and waits for a token refresh — not each
/// attempt alone.
@Suite("Total timeout covers the call", .timeLimit(.minutes(1)))
struct TotalTimeoutCoversTheCallTests {
    private func request(_ url: URL, total: TimeInterval) -> HTTPRequest {
        HTTPRequest(url: url, timeouts: Timeouts(total: total))
    }

    @Test func timeQueuedBehindThePerHostCapCounts() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient(configuration: HTTPClient.Configuration(maximumConcurrentRequestsPerHost: 1))
            let occupying = Recorder<Int?>()
            client.send(HTTPRequest(url: server.baseURL.appendingPathComponent("delay/3"))) {
                occupying.append(try? $0.get().statusCode)
            }
            let queued = await client.deliveries(request(server.baseURL.appendingPathComponent("get"), total: 1),
                                                 options: CallOptions())
            // Without the queue counted, the request starts after 3 s and succeeds at once.
            #expect(queued.error?.kind == .timedOut)
            #expect(await occupying.wait(for: 1, timeout: 10) == [200])
        }
    }

    @Test func retryDelaysCount() async throws {
        let url = try TestServer.endpoint("/retry-after?seconds=3&key=total-timeout-\(UUID().uuidString)")
        let delivery = await HTTPClient.shared.deliveries(request(url, total: 1.5),
                                                          options: CallOptions(interceptors: [RetryPolicy()]))
        // Per attempt, both attempts are quick and the retry after 3 s succeeds.
        #expect(delivery.error?.kind == .timedOut)
    }

    @Test func aWaitForATokenRefreshCounts() async throws {
        try await withPrivateServer { server in
            let held = HeldRefresh()
            let refresher = TokenRefresher(token: "stale") { held.refresh($0) }
            let client = HTTPClient(configuration: HTTPClient.Configuration(interceptors: [refresher]))
            let completions = Recorder<NetworkError.Kind?>()
            client.perform(request(server.baseURL.appendingPathComponent("auth/protected"), total: 0.5), plan: .response(),
                           options: CallOptions()) { completions.append($0.error?.kind) }
            // The refresh is held until after the wait: only the total timeout can end the call here.
            #expect(await completions.wait(for: 1, timeout: 10) == [.timedOut])
            held.finish(with: .success("t-0"))
            #expect(await client.deliveries(request(server.baseURL.appendingPathComponent("auth/protected"), total: 30),
                                            options: CallOptions()).response?.statusCode == 200)
            #expect(completions.count == 1)
        }
    }

    @Test func aStubDelayCountsAndTheCallEndsOnce() async throws {
        let url = try #require(URL(string: "http://127.0.0.1:9/stubbed"))
        let completions = Recorder<NetworkError.Kind?>()
        let recorder = EventRecorder()
        HTTPClient.shared.perform(request(url, total: 0.3), plan: .response(),
                                  options: CallOptions(hooks: [recorder], stub: Stub(body: Data(), delay: 30))) {
            completions.append($0.error?.kind)
        }
        #expect(await completions.wait(for: 1, timeout: 10) == [.timedOut])
        #expect(recorder.isBalanced)
    }

    @Test func aCallWithinItsTotalTimeoutIsUnaffected() async throws {
        // A client of its own: other suites' long transfers must not hold its per-host slots.
        let delivery = await HTTPClient().deliveries(request(try TestServer.endpoint("/get"), total: 10),
                                                     options: CallOptions(interceptors: [RetryPolicy()]))
        #expect(delivery.response?.statusCode == 200)
    }
}
