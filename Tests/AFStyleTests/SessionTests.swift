import AFStyle
import Foundation
import Testing

/// The manager's cookie jar and redirection block against the sample server: a jar shared
/// with Chain's default, cookies carried across calls, and AFNetworking's
/// task-will-perform-redirection block following, changing or stopping a hop.
@Suite("AFStyle sessions: cookies and redirection", .timeLimit(.minutes(1)))
struct SessionTests {
    static func cookies(in object: Any?) -> [String: String] {
        (object as? [String: Any])?["cookies"] as? [String: String] ?? [:]
    }

    @Test("the manager's jar is CookieJar.shared by default; its own jar carries a login across calls")
    func cookiesAcrossCalls() async throws {
        #expect(HTTPSessionManager().cookieJar === CookieJar.shared)
        let manager = try makeManager()
        let jar = CookieJar()
        manager.cookieJar = jar
        let login = Callbacks<Any>()
        manager.GET("cookies/set", parameters: ["session": "af-123"], headers: nil, progress: nil,
                    success: login.success, failure: login.failure)
        #expect(Self.cookies(in: try await login.one().value) == ["session": "af-123"])
        let later = Callbacks<Any>()
        manager.GET("cookies", parameters: nil, headers: nil, progress: nil, success: later.success, failure: later.failure)
        #expect(Self.cookies(in: try await later.one().value) == ["session": "af-123"])

        manager.cookieJar = nil
        let without = Callbacks<Any>()
        manager.GET("cookies", parameters: nil, headers: nil, progress: nil, success: without.success, failure: without.failure)
        #expect(Self.cookies(in: try await without.one().value).isEmpty)
    }

    @Test("the redirection block sees each hop with its task, may change the request, and nil stops")
    func redirectionBlock() async throws {
        let manager = try makeManager()
        let hops = Callbacks<String>()
        manager.setTaskWillPerformHTTPRedirectionBlock { task, response, request in
            hops.succeed("\(task.taskIdentifier) \(response.statusCode) \(request.url.path)")
            var request = request
            request.headers["X-Hop"] = "from the block"
            return request
        }
        let followed = Callbacks<Any>()
        let task = manager.GET("redirect/2", parameters: nil, headers: nil, progress: nil,
                               success: followed.success, failure: followed.failure)
        let echo = try await followed.one().value as? [String: Any]
        #expect((echo?["headers"] as? [String: Any])?["X-Hop"] as? String == "from the block")
        let id = task?.taskIdentifier ?? -1
        #expect(try await hops.one().value == "\(id) 302 /redirect/1")
        #expect(try await hops.one().value == "\(id) 302 /get")
        #expect(task?.response?.redirects.count == 2)

        manager.setTaskWillPerformHTTPRedirectionBlock { _, _, _ in nil }
        let stopped = Callbacks<Any>()
        manager.GET("redirect/1", parameters: nil, headers: nil, progress: nil, success: stopped.success, failure: stopped.failure)
        #expect(try await stopped.one().error?.kind == .unacceptableStatus(302))

        manager.setTaskWillPerformHTTPRedirectionBlock(nil)
        let plain = Callbacks<Any>()
        manager.GET("redirect/1", parameters: nil, headers: nil, progress: nil, success: plain.success, failure: plain.failure)
        #expect(try await plain.one().value != nil)
    }
}
