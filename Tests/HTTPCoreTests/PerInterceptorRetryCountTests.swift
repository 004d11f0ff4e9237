import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import SampleServer
import Testing

/// Each interceptor counts the retries it asked for itself: a retry policy's retries do not
/// use up a token refresher's replay, nor the other way round.
@Suite("Per-interceptor retry counts", .timeLimit(.minutes(1)))
struct PerInterceptorRetryCountTests {
    /// A refresher whose refresh asks the server for a new token (`/auth/refresh`).
    static func refresher(for server: SampleServer) -> TokenRefresher {
        let client = HTTPClient(configuration: HTTPClient.Configuration())
        let refreshRequest = HTTPRequest(url: server.baseURL.appendingPathComponent("auth/refresh"), method: .post)
        return TokenRefresher(token: "stale") { done in
            client.send(refreshRequest) { result in
                done(result.flatMap { response in
                    let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any]
                    guard let token = object?["token"] as? String else {
                        return .failure(NetworkError(.invalidResponse, "no token in the refresh's answer"))
                    }
                    return .success(token)
                })
            }
        }
    }

    /// 503 → the policy retries → 401 → the refresher still refreshes and replays → 200.
    @Test func aTokenRefreshStillHappensAfterAnEarlierRetry() async throws {
        try await withPrivateServer { server in
            let interceptors: [any RequestInterceptor] = [PerInterceptorRetryCountTests.refresher(for: server),
                                                          RetryPolicy(baseDelay: 0.01, usesJitter: false)]
            let url = server.baseURL.appendingPathComponent("pipeline/unavailable-then-protected/a")
            let delivery = await HTTPClient.shared.deliveries(HTTPRequest(url: url),
                                                              options: CallOptions(interceptors: interceptors))
            #expect(delivery.response?.statusCode == 200)
        }
    }

    /// 401 → the refresher replays → 503, 503 → the policy still retries twice → 200.
    @Test func aRetryPolicyKeepsItsRetriesAfterATokenReplay() async throws {
        try await withPrivateServer { server in
            let interceptors: [any RequestInterceptor] = [PerInterceptorRetryCountTests.refresher(for: server),
                                                          RetryPolicy(maximumRetries: 2, baseDelay: 0.01, usesJitter: false)]
            let url = server.baseURL.appendingPathComponent("pipeline/protected-then-unavailable/b")
            let delivery = await HTTPClient.shared.deliveries(HTTPRequest(url: url),
                                                              options: CallOptions(interceptors: interceptors))
            #expect(delivery.response?.statusCode == 200)
        }
    }

    /// The limits still hold: a server that keeps failing ends in its failure.
    @Test func eachInterceptorStillStopsAtItsOwnLimit() async throws {
        try await withPrivateServer { server in
            let interceptors: [any RequestInterceptor] = [PerInterceptorRetryCountTests.refresher(for: server),
                                                          RetryPolicy(maximumRetries: 2, baseDelay: 0.01, usesJitter: false)]
            let url = server.baseURL.appendingPathComponent("pipeline/protected-then-unavailable/c")
                .appending(queryItems: [URLQueryItem(name: "failures", value: "3")])
            let delivery = await HTTPClient.shared.deliveries(HTTPRequest(url: url),
                                                              options: CallOptions(interceptors: interceptors))
            #expect(delivery.response?.statusCode == 503)
            // One 401, the replay's 503, two retries' 503s.
            #expect(server.requestCount == 4 + 1)  // and the one refresh
        }
    }
}
