/// Redirect chains, arbitrary redirects (for the unsupported-scheme test) and a loop.
extension Router {
    static let redirectRoutes: [Route] = [
        Route(nil, "/redirect/:count", redirectChain),
        Route(nil, "/redirect-to", redirectTo),
        Route(nil, "/redirect-loop", { _ in redirect(to: "/redirect-loop", status: 302) }),
    ]

    /// `/redirect/{n}`: 302 to `/redirect/{n-1}`, and from `/redirect/1` to `/get`.
    private static func redirectChain(_ request: RouteContext) throws -> Response {
        guard let count = Int(request.parameter("count")), count >= 1 else {
            return .error("count must be a positive integer", code: "400", status: 400)
        }
        return redirect(to: count == 1 ? "/get" : "/redirect/\(count - 1)", status: 302)
    }

    /// `/redirect-to?url=X&status_code=302`: a redirect to any URL (a 3xx status only).
    private static func redirectTo(_ request: RouteContext) throws -> Response {
        guard let target = request.query["url"], !target.isEmpty,
              target.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value != 0x7f }) else {
            return .error("url is required and must not contain spaces or control characters", code: "400", status: 400)
        }
        guard let status = request.queryInt("status_code", default: 302, in: Int.min...Int.max),
              (300...399).contains(status) else {
            return .error("status_code must be from 300 to 399", code: "400", status: 400)
        }
        return redirect(to: target, status: status)
    }

    private static func redirect(to location: String, status: Int) -> Response {
        .json(["redirect": .string(location)], status: status, headers: [("Location", location)])
    }
}
