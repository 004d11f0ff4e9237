@testable import AFStyle
import Foundation
import Testing

@Suite("URL resolution", .timeLimit(.minutes(2)))
struct URLResolutionTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let base: String?
        let path: String
        let expected: String?  // nil: fails with .invalidURL
        var testDescription: String { "\(base ?? "no base") + \"\(path)\"" }
    }

    static let cases: [Case] = [
        // Relative paths extend the base's path: the trailing slash is added to it.
        Case(base: "http://h.com/api/v1", path: "user/1", expected: "http://h.com/api/v1/user/1"),
        Case(base: "http://h.com/api/v1/", path: "user/1", expected: "http://h.com/api/v1/user/1"),
        Case(base: "http://h.com/api/v1", path: "./user", expected: "http://h.com/api/v1/user"),
        Case(base: "http://h.com/api/v1", path: "../x", expected: "http://h.com/api/x"),
        Case(base: "http://h.com", path: "user/1", expected: "http://h.com/user/1"),
        // A leading slash goes to the host root.
        Case(base: "http://h.com/api/v1", path: "/user/1", expected: "http://h.com/user/1"),
        // An absolute URL wins; a network-path reference keeps the base's scheme.
        Case(base: "http://h.com/api/v1", path: "https://o.com/x?y=1", expected: "https://o.com/x?y=1"),
        Case(base: nil, path: "http://o.com/x", expected: "http://o.com/x"),
        Case(base: "https://h.com/api", path: "//other.com/p", expected: "https://other.com/p"),
        // Queries and the empty string stay on the base.
        Case(base: "http://h.com/api/v1", path: "", expected: "http://h.com/api/v1/"),
        Case(base: "http://h.com/api/v1", path: "?q=1", expected: "http://h.com/api/v1/?q=1"),
        Case(base: "http://h.com/api/v1", path: "user?q=1&r=2", expected: "http://h.com/api/v1/user?q=1&r=2"),
        Case(base: "http://h.com:8080/api", path: "user", expected: "http://h.com:8080/api/user"),
        // Characters URLs cannot hold are percent-encoded.
        Case(base: "http://h.com/api", path: "a b", expected: "http://h.com/api/a%20b"),
        Case(base: "http://h.com/api", path: "user/中文", expected: "http://h.com/api/user/%E4%B8%AD%E6%96%87"),
        // Unresolvable strings.
        Case(base: nil, path: "user/1", expected: nil),
        Case(base: nil, path: "", expected: nil),
        Case(base: nil, path: "http://[::1", expected: nil),
        Case(base: "http://h.com/api", path: "http://[::1", expected: nil),
        Case(base: "http://h.com/api", path: "ht tp://x", expected: nil),
        Case(base: "http://h.com/api", path: "mailto:someone@example.com", expected: nil),
    ]

    @Test("resolves like AFNetworking", arguments: cases)
    func resolution(_ item: Case) throws {
        let manager = HTTPSessionManager(baseURL: item.base.flatMap(URL.init(string:)))
        if let expected = item.expected {
            #expect(try manager.url(for: item.path).absoluteString == expected)
        } else {
            #expect {
                try manager.url(for: item.path)
            } throws: { error in
                (error as? NetworkError)?.kind == .invalidURL
            }
        }
    }

    @Test("the base URL gets its trailing slash, also when set later")
    func trailingSlash() throws {
        let manager = HTTPSessionManager(baseURL: URL(string: "http://h.com/api/v1"))
        #expect(manager.baseURL?.absoluteString == "http://h.com/api/v1/")
        manager.baseURL = URL(string: "http://h.com/other")
        #expect(manager.baseURL?.absoluteString == "http://h.com/other/")
        manager.baseURL = URL(string: "http://h.com")
        #expect(manager.baseURL?.absoluteString == "http://h.com")
        manager.baseURL = nil
        #expect(manager.baseURL == nil)
    }

    /// What a string resolved to is kept per settings generation: a change of the base URL
    /// (or of any other setting) must never let an older resolution through, and a full set
    /// starts over rather than grow.
    @Test("kept resolutions follow base URL changes, survive the size limit, and never keep a failure")
    func keptResolutions() throws {
        let manager = HTTPSessionManager(baseURL: URL(string: "http://h.com/api"))
        #expect(try manager.url(for: "user/1").absoluteString == "http://h.com/api/user/1")
        #expect(try manager.url(for: "user/1").absoluteString == "http://h.com/api/user/1")
        manager.baseURL = URL(string: "http://other.com/v2")
        #expect(try manager.url(for: "user/1").absoluteString == "http://other.com/v2/user/1")
        manager.baseURL = nil
        #expect(throws: NetworkError.self) { try manager.url(for: "user/1") }
        #expect(throws: NetworkError.self) { try manager.url(for: "user/1") }
        manager.baseURL = URL(string: "http://h.com/api")
        #expect(try manager.url(for: "user/1").absoluteString == "http://h.com/api/user/1")
        // Past the limit the set starts over; every string still resolves to its own URL.
        let count = HTTPSessionManager.resolvedURLLimit + 44
        for round in 0..<2 {
            for index in 0..<count {
                #expect(try manager.url(for: "item/\(index)").absoluteString == "http://h.com/api/item/\(index)",
                        "round \(round)")
            }
        }
    }

    @Test("a resolution made under older settings is not kept over newer ones")
    func olderResolutionsAreNotKept() throws {
        let manager = HTTPSessionManager(baseURL: URL(string: "http://h.com/api"))
        let old = manager.configuration
        manager.baseURL = URL(string: "http://new.com/")
        let new = manager.configuration
        #expect(new.generation > old.generation)
        #expect(try manager.resolvedURL("x", configuration: new).absoluteString == "http://new.com/x")
        // A call that read the settings before the change finishes resolving afterwards.
        #expect(try manager.resolvedURL("x", configuration: old).absoluteString == "http://h.com/api/x")
        #expect(manager.keptURL(for: "x", generation: old.generation) == nil)
        #expect(manager.keptURL(for: "x", generation: new.generation)?.absoluteString == "http://new.com/x")
    }

    @Test("an unresolvable string fails through failure with no task and .invalidURL, once")
    func invalidURLFailsThroughFailure() async throws {
        let manager = HTTPSessionManager.shared
        for bad in ["http://[::1", "relative/without/base", ""] {
            let callbacks = Callbacks<Any?>()
            let task = manager.GET(bad, parameters: nil, headers: nil, progress: nil,
                                   success: callbacks.success, failure: callbacks.failure)
            #expect(task == nil)
            let callback = try await callbacks.one()
            #expect(callback.task == nil)
            #expect(callback.error?.kind == .invalidURL)
            #expect(callbacks.count == 1)
        }
    }

    @Test("relative, rooted and absolute strings reach the right paths on the server")
    func resolutionAgainstServer() async throws {
        let root = try TestServer.baseURL
        let manager = try makeManager(path: "anything/api")
        let cases = [("v1/users", "/anything/api/v1/users"), ("/anything/root", "/anything/root"),
                     (root.appendingPathComponent("anything/absolute").absoluteString, "/anything/absolute")]
        for (path, expected) in cases {
            let callbacks = Callbacks<Any?>()
            manager.GET(path, success: callbacks.success, failure: callbacks.failure)
            let echo = try await callbacks.dictionary()
            #expect(echo["path"] as? String == expected)
        }
    }
}
