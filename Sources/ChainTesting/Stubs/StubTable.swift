import Foundation
import HTTPCore
import Synchronization

/// Canned answers by method and URL pattern, with no network — what app tests set up instead
/// of a server (OHHTTPStubs, Mocker, Moya's stub closure).
///
/// ```swift
/// let stubs = StubTable()
/// stubs.on(.get, "/user/:id") { request in
///     try .json(User(id: Int(request.parameters["id"] ?? "") ?? 0, name: "wiki"))
/// }
/// stubs.on(.post, "/account/login", body: .form(["username": "wiki"]), responses: [
///     MockResponse(status: 503), .json(#"{"token":"t-1"}"#),     // first a 503, then 200s
/// ])
/// var configuration = ChainConfiguration()
/// configuration.stubs = stubs                 // or `manager.stubs = stubs` for AFStyle
/// ```
///
/// A stubbed call runs the whole pipeline as a network response would: the interceptors
/// adapt the request first (a route sees the `Authorization` they add), and the answer goes
/// through redirects, retriers, validation, envelopes, decoding, the cache and the hooks
/// (``HTTPResponse/source`` is ``ResponseSource/stub``). ``MockResponse/Option``s apply: a
/// delay (a cancel or the total timeout still ends the call at once), a throttle (the time the
/// body would take), and the faults as the errors a client sees from a server that commits
/// them.
///
/// Routes are tried newest first, so a test can override a suite's defaults. A request no
/// route matches fails under ``UnmatchedPolicy/fail`` (the default) with
/// ``NetworkError/Kind/invalidRequest`` whose underlying ``StubTableError/unmatched(method:url:)``
/// names it, or goes on to the network under ``UnmatchedPolicy/passThrough``. Thread-safe:
/// routes may be added while calls run.
public final class StubTable: Sendable {
    /// What happens to a request no route matches.
    public enum UnmatchedPolicy: Sendable, Hashable {
        /// Fail it with ``StubTableError/unmatched(method:url:)``.
        case fail
        /// Send it on: to the next responder (a cassette), else the network.
        case passThrough
    }

    private struct State {
        var routes: [StubRoute] = []
        var requests: [StubRequest] = []
        var policy: UnmatchedPolicy
    }

    private let state: Mutex<State>

    /// Makes an empty table.
    /// - Parameter unmatched: the policy for requests no route matches. Default ``UnmatchedPolicy/fail``.
    public init(unmatched: UnmatchedPolicy = .fail) {
        state = Mutex(State(policy: unmatched))
    }

    /// The policy for requests no route matches. Default ``UnmatchedPolicy/fail``.
    public var unmatchedPolicy: UnmatchedPolicy {
        get { state.withLock { $0.policy } }
        set { state.withLock { $0.policy = newValue } }
    }

    /// Adds a route answered by `respond`, called once per request it matches, on any thread.
    /// What `respond` throws fails the request with ``StubTableError/handlerFailed(method:url:reason:)``.
    ///
    /// - Parameters:
    ///   - method: the method to match; `nil` matches any. `.get` matches `HEAD` too.
    ///   - pattern: a path (`/user/:id`, `/files/*rest`) or a whole URL; see ``StubRequest/parameters``.
    ///   - query: query items the request must have, with these values (others may be there
    ///     too). Default none.
    ///   - body: what the body must be. Default: anything.
    ///   - predicate: any other condition. Default none.
    @discardableResult
    public func on(_ method: HTTPMethod?, _ pattern: String, query: [String: String] = [:], body: StubBodyMatcher? = nil,
                   where predicate: (@Sendable (StubRequest) -> Bool)? = nil,
                   respond: @escaping @Sendable (StubRequest) throws -> MockResponse) -> StubRoute {
        add(StubRoute(method: method, pattern: pattern, query: query, body: body, predicate: predicate) { request, _ in
            try respond(request)
        })
    }

    /// Adds a route answered by `responses` in turn — the first hit gets the first, and once
    /// they are used up the last answers every later hit (first a `503`, then `200`s). The
    /// other parameters are those of ``on(_:_:query:body:where:respond:)``.
    @discardableResult
    public func on(_ method: HTTPMethod?, _ pattern: String, query: [String: String] = [:], body: StubBodyMatcher? = nil,
                   where predicate: (@Sendable (StubRequest) -> Bool)? = nil, responses: [MockResponse]) -> StubRoute {
        add(StubRoute(method: method, pattern: pattern, query: query, body: body, predicate: predicate) { _, hit in
            responses.isEmpty ? nil : responses[min(hit, responses.count - 1)]
        })
    }

    /// Adds a route that always answers `response`.
    @discardableResult
    public func on(_ method: HTTPMethod?, _ pattern: String, query: [String: String] = [:], body: StubBodyMatcher? = nil,
                   where predicate: (@Sendable (StubRequest) -> Bool)? = nil, response: MockResponse) -> StubRoute {
        on(method, pattern, query: query, body: body, where: predicate, responses: [response])
    }

    private func add(_ route: StubRoute) -> StubRoute {
        state.withLock { $0.routes.append(route) }
        return route
    }

    /// Removes `route`; requests in flight that it already matched still get its answer.
    public func remove(_ route: StubRoute) {
        state.withLock { $0.routes.removeAll { $0 === route } }
    }

    /// Removes every route and forgets the requests seen.
    public func removeAll() {
        state.withLock { state in
            state.routes.removeAll()
            state.requests.removeAll()
        }
    }

    /// The routes, oldest first.
    var routes: [StubRoute] { state.withLock { $0.routes } }

    /// Every request the table was asked about, oldest first, matched or not (each redirect
    /// hop and retry on its own).
    public var requests: [StubRequest] { state.withLock { $0.requests } }

    /// The route that answers `request` (newest first), and the request as it sees it; `nil`
    /// and the policy when none does. Records the request.
    func route(for request: HTTPRequest) -> (StubRoute, StubRequest)? {
        let routes = state.withLock { $0.routes }
        var found: (StubRoute, StubRequest)?
        for route in routes.reversed() {
            if let matched = route.match(request) {
                found = (route, matched)
                break
            }
        }
        let seen = found?.1 ?? StubRequest(request)
        state.withLock { $0.requests.append(seen) }
        return found
    }
}
