import Chain
import Foundation
import SampleServer
import Synchronization
import Testing

/// The configuration a refresher's own refresh goes through (the refresher is part of it).
private final class ConfigurationBox: Sendable {
    let value = Mutex<ChainConfiguration?>(nil)
}

private struct Token: Decodable, Sendable {
    let token: String
}

/// Records the `Authorization` header of every request it sees, as sent.
private final class AuthorizationLog: RequestInterceptor {
    let sent = Mutex<[String?]>([])

    func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
        if request.url.path.hasSuffix("/protected") { sent.withLock { $0.append(request.headers["Authorization"]) } }
        completion(.success(request))
    }
}

/// A configuration-wide ``TokenRefresher`` whose refresh is sent through that same
/// configuration, as the README shows, and `token: nil`.
@Suite("Token refresh through its own configuration", .timeLimit(.minutes(1)))
struct TokenRefreshThroughItsOwnConfigurationTests {
    /// The refresh's request goes out although the refresher is refreshing.
    @Test func theRefreshRequestIsNotParkedBehindItsOwnRefresh() async throws {
        try await withPrivateServer { server in
            let box = ConfigurationBox()
            let refresher = TokenRefresher(token: "stale") { done in
                guard let configuration = box.value.withLock({ $0 }) else { return }
                Request.url("auth/refresh").configuration(configuration).method(.post).response(Token.self) {
                    done($0.map(\.token))
                }
            }
            var configuration = ChainConfiguration(baseURL: server.baseURL)
            configuration.interceptors = [refresher]
            box.value.withLock { $0 = configuration }
            let outcome = Recorder<Result<Data, NetworkError>>()
            Request.url("auth/protected").configuration(configuration).responseData { outcome.append($0) }
            let result = try #require(await outcome.wait(for: 1, timeout: 15).first, "the call hung on its own refresh")
            #expect((try? result.get()) != nil)
            #expect(refresher.token == "t-1")
        }
    }

    /// A refresh request answered 401 is the refresh's failure, not a wait for itself.
    @Test func aRefreshRequestAnswered401FailsTheRefresh() async throws {
        try await withPrivateServer { server in
            let box = ConfigurationBox()
            let refresher = TokenRefresher(token: "stale") { done in
                guard let configuration = box.value.withLock({ $0 }) else { return }
                // The refresh endpoint here is itself protected, so it answers 401.
                Request.url("auth/protected").configuration(configuration).query(["refresh": "1"]).response(Token.self) {
                    done($0.map(\.token))
                }
            }
            var configuration = ChainConfiguration(baseURL: server.baseURL)
            configuration.interceptors = [refresher]
            box.value.withLock { $0 = configuration }
            let outcome = Recorder<Result<Data, NetworkError>>()
            Request.url("auth/protected").configuration(configuration).responseData { outcome.append($0) }
            let result = try #require(await outcome.wait(for: 1, timeout: 15).first, "the call hung on its own refresh")
            guard case .failure(let error) = result else {
                Issue.record("a failed refresh delivered a success")
                return
            }
            #expect(error.message.hasPrefix("the token refresh failed"))
        }
    }

    /// `token: nil` fetches a token before the first request: that request carries it.
    @Test func withoutATokenTheFirstRequestWaitsForOne() async throws {
        try await withPrivateServer { server in
            let log = AuthorizationLog()
            let refreshes = Mutex(0)
            let refresher = TokenRefresher(token: nil) { done in
                refreshes.withLock { $0 += 1 }
                done(.success("t-0"))  // the sample server's first token
            }
            var configuration = ChainConfiguration(baseURL: server.baseURL)
            configuration.interceptors = [refresher, log]
            let outcome = Recorder<Result<Data, NetworkError>>()
            Request.url("auth/protected").configuration(configuration).responseData { outcome.append($0) }
            let result = try #require(await outcome.wait(for: 1, timeout: 15).first, "the first request never went out")
            #expect((try? result.get()) != nil)
            #expect(log.sent.withLock { $0 } == ["Bearer t-0"])
            #expect(refreshes.withLock { $0 } == 1)
        }
    }
}
