/// Deterministic binary bodies: sized, ranged, chunked and paced.
extension Router {
    /// The largest `/bytes` and `/stream-bytes` body: 1 GiB.
    static let maxGeneratedBytes = 1 << 30

    static let bytesRoutes: [Route] = [
        Route(["GET"], "/bytes/:count", bytes),
        Route(["GET"], "/stream-bytes/:count", streamBytes),
        Route(["GET", "POST"], "/drip", drip),
    ]

    private static func count(_ request: RouteContext) -> Int? {
        guard let count = Int(request.parameter("count")), (0...maxGeneratedBytes).contains(count) else { return nil }
        return count
    }

    private static func seed(_ request: RouteContext) -> UInt64? {
        guard let text = request.query["seed"] else { return 0 }
        return UInt64(text)
    }

    /// `/bytes/{n}?seed=S`: n bytes with Content-Length, streamed; a single `Range`
    /// (`bytes=a-b`, `bytes=a-`, `bytes=-n`) gives 206 with Content-Range, an unsatisfiable one
    /// 416. Multiple ranges, an unparseable Range or a non-matching If-Range give the whole body.
    private static func bytes(_ request: RouteContext) throws -> Response {
        guard let count = count(request), let seed = seed(request) else {
            return .error("count must be from 0 to \(maxGeneratedBytes), seed an unsigned integer", code: "400", status: 400)
        }
        let etag = "\"bytes-\(count)-\(seed)\""
        var headers: [(String, String)] = [
            ("Content-Type", "application/octet-stream"), ("Accept-Ranges", "bytes"), ("ETag", etag),
        ]
        var range = 0..<count
        var status = 200
        let ifRange = request.head.headers["If-Range"]
        if let header = request.head.headers["Range"], ifRange == nil || ifRange == etag {
            switch ByteRange.parse(header, length: count) {
            case .satisfiable(let requested):
                range = requested
                status = 206
                headers.append(("Content-Range", "bytes \(requested.lowerBound)-\(requested.upperBound - 1)/\(count)"))
            case .unsatisfiable:
                return .json(["error": "range not satisfiable", "error_code": "416"], status: 416,
                             headers: [("Content-Range", "bytes */\(count)")])
            case .ignored:
                break
            }
        }
        return Response(status: status, headers: headers, body: .stream(length: range.count) { writer in
            try writeDeterministic(range, seed: seed, pieceSize: 64 * 1024, to: writer)
        })
    }

    /// `/stream-bytes/{n}?seed=S&chunk_size=C`: the same bytes, chunked, C bytes per chunk (default 10240).
    private static func streamBytes(_ request: RouteContext) throws -> Response {
        guard let count = count(request), let seed = seed(request),
              let chunkSize = request.queryInt("chunk_size", default: 10240, in: 1...(1 << 20)) else {
            return .error("invalid count, seed or chunk_size", code: "400", status: 400)
        }
        return Response(status: 200, headers: [("Content-Type", "application/octet-stream")],
                        body: .stream(length: nil) { writer in
            try writeDeterministic(0..<count, seed: seed, pieceSize: chunkSize, to: writer)
        })
    }

    private static func writeDeterministic(_ range: Range<Int>, seed: UInt64, pieceSize: Int, to writer: BodyWriter) throws {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: pieceSize, alignment: 8)
        defer { buffer.deallocate() }
        var offset = range.lowerBound
        while offset < range.upperBound {
            let take = min(pieceSize, range.upperBound - offset)
            let piece = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<take])
            DeterministicBytes.fill(piece, seed: seed, offset: offset)
            try writer.write(UnsafeRawBufferPointer(piece))
            offset += take
        }
    }

    /// `/drip?numbytes=10&duration=2&delay=0&code=200`: waits `delay` seconds before the head,
    /// then sends `numbytes` bytes of `*` (Content-Length set) in up to 1000 even pieces, the
    /// last one at `duration` seconds. Each value is capped (10 MiB, 30 s, 30 s).
    private static func drip(_ request: RouteContext) throws -> Response {
        guard let count = request.queryInt("numbytes", default: 10, in: 0...(10 << 20)),
              let duration = request.queryDouble("duration", default: 2, in: 0...30),
              let delay = request.queryDouble("delay", default: 0, in: 0...30),
              let code = request.queryInt("code", default: 200, in: Int.min...Int.max), (200...599).contains(code) else {
            return .error("invalid numbytes, duration, delay or code", code: "400", status: 400)
        }
        guard request.server.wait(seconds: delay) else { return .error("server stopping", code: "503", status: 503) }
        if Response.forbidsBody(code) { return Response(status: code) }
        let pieces = min(count, 1000)
        return Response(status: code, headers: [("Content-Type", "application/octet-stream")],
                        body: .stream(length: count) { writer in
            for index in 0..<pieces {
                guard writer.wait(seconds: duration / Double(pieces)) else { return }
                // Spread the remainder so the sizes differ by at most one byte.
                let size = count / pieces + (index < count % pieces ? 1 : 0)
                try writer.write([UInt8](repeating: UInt8(ascii: "*"), count: size))
            }
        })
    }
}
