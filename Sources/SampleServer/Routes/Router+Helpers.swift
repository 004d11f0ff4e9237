/// Stateful routes for retry and token-refresh tests. Their state lives in `ServerState`,
/// per server, so parallel tests with their own servers (or their own keys) do not interfere.
extension Router {
    static let helperRoutes: [Route] = [
        Route(nil, "/flaky/:key", flaky),
        Route(nil, "/retry-after", retryAfter),
        Route(nil, "/auth/protected", protected),
        Route(["POST"], "/auth/refresh", { request in
            let token = request.server.state.withLock { state -> String in
                state.tokenSerial += 1
                return "t-\(state.tokenSerial)"
            }
            return .json(["token": .string(token)])
        }),
        Route(["GET"], "/auth/token", { request in
            .json(["token": .string(currentToken(request))])
        }),
    ]

    /// `/flaky/{key}?failures=N&status=503`: the first N requests for the key (default 1)
    /// fail with the status (default 503, 400–599), later ones get 200. Both report `attempt`.
    private static func flaky(_ request: RouteContext) throws -> Response {
        guard let failures = request.queryInt("failures", default: 1, in: 0...1_000_000),
              let status = request.queryInt("status", default: 503, in: Int.min...Int.max),
              (400...599).contains(status) else {
            return .error("failures must be an integer, status from 400 to 599", code: "400", status: 400)
        }
        let key = request.parameter("key")
        let attempt = request.server.state.withLock { state -> Int in
            let attempt = (state.flakyAttempts[key] ?? 0) + 1
            state.flakyAttempts[key] = attempt
            return attempt
        }
        if attempt <= failures {
            return .json(["error": "flaky failure", "error_code": .string(String(status)), "attempt": .int(attempt)],
                         status: status)
        }
        return .json(["key": .string(key), "attempt": .int(attempt)])
    }

    /// `/retry-after?seconds=S&key=K`: the first request for K (default "default") gets 503
    /// with `Retry-After: S` (default 1), later ones 200.
    private static func retryAfter(_ request: RouteContext) throws -> Response {
        guard let seconds = request.queryInt("seconds", default: 1, in: 0...86_400) else {
            return .error("seconds must be an integer", code: "400", status: 400)
        }
        let key = request.query["key"] ?? "default"
        let first = request.server.state.withLock { $0.retryAfterKeys.insert(key).inserted }
        if first {
            return .json(["error": "try again later", "error_code": "503"], status: 503,
                         headers: [("Retry-After", String(seconds))])
        }
        return .json(["key": .string(key), "retried": true])
    }

    /// 200 with `Authorization: Bearer <current token>`, else 401 with `WWW-Authenticate: Bearer`.
    private static func protected(_ request: RouteContext) throws -> Response {
        let token = currentToken(request)
        guard request.head.headers["Authorization"] == "Bearer \(token)" else {
            return .error("invalid or expired token", code: "1005", status: 401,
                          headers: [("WWW-Authenticate", "Bearer realm=\"sample\"")])
        }
        return .json(["authenticated": true, "token": .string(token)])
    }

    /// The token `/auth/refresh` issued last (`t-0` before the first refresh).
    private static func currentToken(_ request: RouteContext) -> String {
        "t-\(request.server.state.withLock { $0.tokenSerial })"
    }
}
