/// Maps a request to a route by method and path pattern. The table is the concatenation of
/// the route groups in the `Routes` folder; the first matching entry wins, so specific
/// patterns come before general ones (`/user/query` before `/user/:id`).
enum Router {
    /// One entry of the table.
    struct Route: Sendable {
        /// The accepted methods; nil accepts any. A route accepting GET also accepts HEAD.
        let methods: [String]?
        let pattern: [Segment]
        let handler: @Sendable (RouteContext) throws -> Response

        /// `pattern` like `/user/:id` or `/anything/*rest`.
        init(_ methods: [String]?, _ pattern: String, _ handler: @escaping @Sendable (RouteContext) throws -> Response) {
            self.methods = methods
            self.pattern = pattern.split(separator: "/").map { piece in
                if piece.hasPrefix(":") { return .parameter(String(piece.dropFirst())) }
                if piece.hasPrefix("*") { return .rest(String(piece.dropFirst())) }
                return .literal(String(piece))
            }
            self.handler = handler
        }

        /// The path parameters if `segments` match the pattern.
        func match(_ segments: [String]) -> [String: String]? {
            var parameters: [String: String] = [:]
            for (index, segment) in pattern.enumerated() {
                switch segment {
                case .literal(let text):
                    guard index < segments.count, segments[index] == text else { return nil }
                case .parameter(let name):
                    guard index < segments.count else { return nil }
                    parameters[name] = segments[index]
                case .rest(let name):
                    parameters[name] = segments.dropFirst(index).joined(separator: "/")
                    return parameters
                }
            }
            return segments.count == pattern.count ? parameters : nil
        }

        func accepts(_ method: String) -> Bool {
            guard let methods else { return true }
            return methods.contains(method) || (method == "HEAD" && methods.contains("GET"))
        }
    }

    /// A piece of a route pattern.
    enum Segment: Sendable {
        case literal(String)
        /// `:name` — one path segment.
        case parameter(String)
        /// `*name` — the rest of the path, possibly empty.
        case rest(String)
    }

    static let routes: [Route] = sampleAPIRoutes + envelopeRoutes + echoRoutes + redirectRoutes + bytesRoutes
        + compressionRoutes + cachingRoutes + uploadRoutes + faultRoutes + helperRoutes + pipelineRoutes + dockerRoutes
        + authRoutes + cookieRoutes + streamingRoutes

    /// Runs the matching route. Unknown paths are 404, known paths with another method 405.
    /// Throws only what reading the body or the socket throws.
    static func route(_ request: RouteContext) throws -> Response {
        let segments = request.head.path.split(separator: "/").map { QueryItems.decode($0, plusIsSpace: false) }
        var allowed: [String] = []
        for route in routes {
            guard let parameters = route.match(segments) else { continue }
            guard route.accepts(request.method) else {
                allowed.append(contentsOf: route.methods ?? [])
                continue
            }
            request.parameters = parameters
            return try route.handler(request)
        }
        if !allowed.isEmpty {
            var unique: [String] = []
            for method in allowed + (allowed.contains("GET") ? ["HEAD"] : []) where !unique.contains(method) {
                unique.append(method)
            }
            return .json(["error": "method not allowed", "error_code": "405", "allowed": .array(unique.map { .string($0) })],
                         status: 405, headers: [("Allow", unique.joined(separator: ", "))])
        }
        return .json(["error": "not found", "error_code": "404", "path": .string(request.head.path)], status: 404)
    }
}
