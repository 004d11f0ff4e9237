import Digest

/// Long-lived and incremental bodies for the client's streaming tests: Server-Sent Events
/// (with resumption and dropped connections), NDJSON, paced binary chunks, an endless body, a
/// language-model style token stream and a hashed upload of any size. Every GET body is
/// chunked (close-delimited for HTTP/1.0) and each piece is its own chunk, sent as it is
/// written, so a client sees the pieces arrive one by one.
extension Router {
    static let streamingRoutes: [Route] = [
        Route(["GET"], "/stream/sse", serverSentEvents),
        Route(["GET"], "/stream/ndjson", ndjson),
        Route(["GET"], "/stream/drip", streamDrip),
        Route(["GET"], "/stream/endless", endless),
        Route(["GET"], "/stream/tokens", tokens),
        Route(["POST"], "/stream/upload", streamUpload),
    ]

    /// Thrown from a body writer to end the connection without the final zero-size chunk:
    /// the connection thread treats any error as the end of the connection and just closes it.
    private struct DroppedStream: Error {}

    private static let eventStreamHeaders = [("Content-Type", "text/event-stream"), ("Cache-Control", "no-store")]

    /// `/stream/sse?count=5&drop-after=K&retry=MS&interval-ms=0&echo-last-id=1`: events 1…count,
    /// each `id: n`, `event: tick`, `data: tick n`, `data: line two`, with a `: keep-alive`
    /// comment after every even-numbered event that is not the last. `retry` sends `retry: MS`
    /// first. A `Last-Event-ID: m` header (an integer) resumes at m+1; with `echo-last-id=1` any
    /// Last-Event-ID is first echoed as `event: resumed` / `data: <value>` (no id). Nothing left
    /// to send is 204. `drop-after=K` closes the connection without the final chunk once K
    /// events went out (even if the K-th is the last); `interval-ms` pauses between events.
    private static func serverSentEvents(_ request: RouteContext) throws -> Response {
        guard let count = request.queryInt("count", default: 5, in: 0...1_000_000),
              let interval = request.queryInt("interval-ms", default: 0, in: 0...60_000),
              let dropAfter = optionalQueryInt(request, "drop-after", in: 0...Int.max),
              let retry = optionalQueryInt(request, "retry", in: 0...86_400_000) else {
            return .error("count, drop-after, retry and interval-ms must be integers", code: "400", status: 400)
        }
        let lastID = request.head.headers["Last-Event-ID"]
        var start = 1
        if let resumedAfter = lastID.flatMap({ Int($0.trimmingOWS()) }) {
            // Compared before adding so an id of Int.max cannot overflow.
            start = resumedAfter >= count ? count + 1 : max(1, resumedAfter + 1)
        }
        guard start <= count else { return Response(status: 204, headers: [("Cache-Control", "no-store")]) }
        let echo = request.query["echo-last-id"] == "1" ? lastID : nil
        return Response(status: 200, headers: eventStreamHeaders, body: .stream(length: nil) { writer in
            if let retry { try writer.write(Array("retry: \(retry)\n\n".utf8)) }
            if let echo { try writer.write(Array("event: resumed\ndata: \(echo)\n\n".utf8)) }
            if dropAfter == 0 { throw DroppedStream() }
            var sent = 0
            for number in start...count {
                if sent > 0 { guard writer.wait(seconds: Double(interval) / 1000) else { return } }
                try writer.write(Array("id: \(number)\nevent: tick\ndata: tick \(number)\ndata: line two\n\n".utf8))
                sent += 1
                if sent == dropAfter { throw DroppedStream() }
                if number % 2 == 0 && number < count { try writer.write(Array(": keep-alive\n".utf8)) }
            }
        })
    }

    /// `nil` when `name` is present but not an integer; `.some(nil)` when absent.
    private static func optionalQueryInt(_ request: RouteContext, _ name: String, in range: ClosedRange<Int>) -> Int?? {
        guard request.query[name] != nil else { return .some(nil) }
        guard let value = request.queryInt(name, default: 0, in: range) else { return nil }
        return .some(value)
    }

    /// `/stream/ndjson?count=5&bad-line=K&blank-lines=1`: `count` records, one chunk per line;
    /// the record on line i (1-based) is `{"index":i,"name":"item i"}`. `blank-lines=1` puts an
    /// empty line between records, alternately `\n` and `\r\n`; those count as lines, so the
    /// records sit on lines 1, 3, 5, …. Line K, whatever it would have been, is `{"index": K,`.
    private static func ndjson(_ request: RouteContext) throws -> Response {
        guard let count = request.queryInt("count", default: 5, in: 0...1_000_000),
              let badLine = optionalQueryInt(request, "bad-line", in: 1...Int.max) else {
            return .error("count and bad-line must be integers", code: "400", status: 400)
        }
        let blankLines = request.query["blank-lines"] == "1"
        return Response(status: 200, headers: [("Content-Type", "application/x-ndjson")], body: .stream(length: nil) { writer in
            var line = 0
            var blanks = 0
            for record in 0..<count {
                line += 1
                let text = line == badLine ? "{\"index\": \(line),\n" : "{\"index\":\(line),\"name\":\"item \(line)\"}\n"
                try writer.write(Array(text.utf8))
                guard blankLines && record < count - 1 else { continue }
                line += 1
                blanks += 1
                let blank = blanks % 2 == 1 ? "\n" : "\r\n"
                try writer.write(Array((line == badLine ? "{\"index\": \(line),\n" : blank).utf8))
            }
        })
    }

    /// `/stream/drip?chunks=10&size=1024&interval-ms=20`: `chunks` chunks of `size` bytes of the
    /// `/bytes` stream with seed 0 (chunk k holds bytes k·size ..< (k+1)·size), `interval-ms` apart.
    private static func streamDrip(_ request: RouteContext) throws -> Response {
        guard let chunks = request.queryInt("chunks", default: 10, in: 0...100_000),
              let size = request.queryInt("size", default: 1024, in: 1...(1 << 20)),
              let interval = request.queryInt("interval-ms", default: 20, in: 0...60_000) else {
            return .error("chunks, size and interval-ms must be integers", code: "400", status: 400)
        }
        return Response(status: 200, headers: [("Content-Type", "application/octet-stream")], body: .stream(length: nil) { writer in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
            defer { buffer.deallocate() }
            for index in 0..<chunks {
                if index > 0 { guard writer.wait(seconds: Double(interval) / 1000) else { return } }
                DeterministicBytes.fill(buffer, seed: 0, offset: index * size)
                try writer.write(UnsafeRawBufferPointer(buffer))
            }
        })
    }

    /// `/stream/endless?chunk=65536`: chunks of `chunk` bytes (up to 4 MiB) of the seed-0 `/bytes`
    /// stream, as fast as the client reads, until a write fails because it went away (or the
    /// server stops). The failed write's error ends the connection and its thread.
    private static func endless(_ request: RouteContext) throws -> Response {
        guard let size = request.queryInt("chunk", default: 65536, in: 1...(4 << 20)) else {
            return .error("chunk must be an integer", code: "400", status: 400)
        }
        return Response(status: 200, headers: [("Content-Type", "application/octet-stream")], body: .stream(length: nil) { writer in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
            defer { buffer.deallocate() }
            var offset = 0
            while !writer.context.isStopped {
                DeterministicBytes.fill(buffer, seed: 0, offset: offset)
                try writer.write(UnsafeRawBufferPointer(buffer))
                // Wrapping keeps a stream that runs for days from trapping; the content repeats then.
                offset = offset < Int.max - size ? offset + size : 0
            }
        })
    }

    /// The text `/stream/tokens` splits into words when the query has none.
    static let defaultTokenText = "Chain streams tokens as they arrive from the server"

    /// `/stream/tokens?text=…&interval-ms=30`: one SSE event per whitespace-separated word of
    /// `text` (default `defaultTokenText`), `data: {"token":"<word> "}` JSON-escaped, then
    /// `data: [DONE]`, `interval-ms` apart, like a language-model API's streamed completion.
    private static func tokens(_ request: RouteContext) throws -> Response {
        guard let interval = request.queryInt("interval-ms", default: 30, in: 0...60_000) else {
            return .error("interval-ms must be an integer", code: "400", status: 400)
        }
        let words = (request.query["text"] ?? defaultTokenText).split(whereSeparator: \.isWhitespace)
        let events = words.map { word -> [UInt8] in
            let payload: JSONValue = ["token": .string(String(word) + " ")]
            return Array("data: ".utf8) + payload.encoded() + Array("\n\n".utf8)
        } + [Array("data: [DONE]\n\n".utf8)]
        return Response(status: 200, headers: eventStreamHeaders, body: .stream(length: nil) { writer in
            for (index, event) in events.enumerated() {
                if index > 0 { guard writer.wait(seconds: Double(interval) / 1000) else { return } }
                try writer.write(event)
            }
        })
    }

    /// `POST /stream/upload`: reads the whole body (Content-Length or chunked, any size; it is
    /// hashed as it arrives, never held) and answers `{"bytes":N,"chunked":Bool,"sha256":hex}`.
    private static func streamUpload(_ request: RouteContext) throws -> Response {
        var hasher = SHA256()
        while try request.body.next({ hasher.update($0) }) {}
        var chunked = false
        if case .chunked = request.body.framing { chunked = true }
        return .json(["bytes": .int(request.body.bytesRead), "chunked": .bool(chunked),
                      "sha256": .string(SHA256.hexString(hasher.finalize()))])
    }
}
