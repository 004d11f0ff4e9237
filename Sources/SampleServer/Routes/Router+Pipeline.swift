/// Routes for tests of the call's pipeline, where one call meets several interceptors: a
/// retryable status and a token refresh in either order. Their counts live in
/// `ServerState.flakyAttempts` under keys of their own, per server.
extension Router {
    static let pipelineRoutes: [Route] = [
        Route(nil, "/pipeline/unavailable-then-protected/:key", unavailableThenProtected),
        Route(nil, "/pipeline/protected-then-unavailable/:key", protectedThenUnavailable),
    ]

    /// `/pipeline/unavailable-then-protected/{key}`: the first request for the key gets 503
    /// with `Retry-After: 0`; later ones are `/auth/protected` (401 unless they carry the
    /// current token).
    private static func unavailableThenProtected(_ request: RouteContext) throws -> Response {
        let attempt = count(request, "unavailable-then-protected")
        if attempt == 1 {
            return .error("try again later", code: "503", status: 503, headers: [("Retry-After", "0")])
        }
        return authorized(request) ?? .json(["authenticated": true, "attempt": .int(attempt)])
    }

    /// `/pipeline/protected-then-unavailable/{key}?failures=N`: 401 unless the request carries
    /// the current token; of the authorized requests for the key, the first N (default 2) get
    /// 503 with `Retry-After: 0`, later ones 200.
    private static func protectedThenUnavailable(_ request: RouteContext) throws -> Response {
        guard let failures = request.queryInt("failures", default: 2, in: 0...1_000) else {
            return .error("failures must be an integer from 0 to 1000", code: "400", status: 400)
        }
        if let refusal = authorized(request) { return refusal }
        let attempt = count(request, "protected-then-unavailable")
        if attempt <= failures {
            return .error("try again later", code: "503", status: 503, headers: [("Retry-After", "0")])
        }
        return .json(["authenticated": true, "attempt": .int(attempt)])
    }

    /// Counts a request for the route's key; returns its number, from 1.
    private static func count(_ request: RouteContext, _ route: String) -> Int {
        let key = "pipeline/\(route)/\(request.parameter("key"))"
        return request.server.state.withLock { state in
            let attempt = (state.flakyAttempts[key] ?? 0) + 1
            state.flakyAttempts[key] = attempt
            return attempt
        }
    }

    /// `nil` when the request carries the current token (as `/auth/protected` checks it), else the 401.
    private static func authorized(_ request: RouteContext) -> Response? {
        let token = "t-\(request.server.state.withLock { $0.tokenSerial })"
        guard request.head.headers["Authorization"] != "Bearer \(token)" else { return nil }
        return .error("invalid or expired token", code: "1005", status: 401,
                      headers: [("WWW-Authenticate", "Bearer realm=\"sample\"")])
    }
}
