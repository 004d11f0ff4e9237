/// Compressed bodies made with real zlib, and a decompression bomb for the size-limit tests.
extension Router {
    /// The default `/gzip-bomb` size (64 MiB) and the largest one accepted (1 GiB).
    static let defaultBombSize = 64 << 20
    static let maxBombSize = 1 << 30

    static let compressionRoutes: [Route] = [
        Route(["GET"], "/gzip", { try compressedEcho($0, format: .gzip) }),
        Route(["GET"], "/deflate", { try compressedEcho($0, format: .zlib) }),
        Route(["GET"], "/gzip-bomb", gzipBomb),
    ]

    /// `{"gzipped":true,…}` or `{"deflated":true,…}` plus method and headers, compressed,
    /// whatever Accept-Encoding says (as httpbin does).
    private static func compressedEcho(_ request: RouteContext, format: ZlibCompressor.Format) throws -> Response {
        let flag = format == .gzip ? "gzipped" : "deflated"
        let document: JSONValue = .object([
            (flag, .bool(true)), ("method", .string(request.method)), ("headers", request.headersJSON),
        ])
        guard let compressed = ZlibCompressor.compress(document.encoded(), format: format) else {
            return .error("compression failed", code: "500", status: 500)
        }
        return Response(status: 200, headers: [
            ("Content-Type", Response.jsonContentType),
            ("Content-Encoding", format == .gzip ? "gzip" : "deflate"),
            ("Vary", "Accept-Encoding"),
        ], body: .bytes(compressed))
    }

    /// `/gzip-bomb?size=N`: N zero bytes (default 64 MiB), gzip-compressed once per size and
    /// kept in the server state, so repeated requests cost nothing.
    private static func gzipBomb(_ request: RouteContext) throws -> Response {
        guard let size = request.queryInt("size", default: defaultBombSize, in: Int.min...Int.max),
              (0...maxBombSize).contains(size) else {
            return .error("size must be from 0 to \(maxBombSize)", code: "400", status: 400)
        }
        var compressed = request.server.state.withLock { $0.gzipBombs[size] }
        if compressed == nil {
            // Compressed outside the lock so other requests are not held up meanwhile.
            compressed = ZlibCompressor.compressZeros(count: size, format: .gzip)
            if let compressed { request.server.state.withLock { $0.gzipBombs[size] = compressed } }
        }
        guard let compressed else { return .error("compression failed", code: "500", status: 500) }
        return Response(status: 200, headers: [
            ("Content-Type", "application/octet-stream"), ("Content-Encoding", "gzip"),
        ], body: .bytes(compressed))
    }
}
