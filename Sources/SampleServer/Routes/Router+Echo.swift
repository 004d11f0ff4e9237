import Digest
import Foundation

/// httpbin-like echo routes: the request comes back as JSON.
extension Router {
    /// Echo bodies keep at most this many body bytes for `data`, `form` and `json`; the
    /// length and SHA-256 always cover the whole body, so large uploads can be checked.
    static let echoBodyLimit = 16 << 20

    static let echoRoutes: [Route] = [
        Route(["GET"], "/get", { try echo($0) }),
        Route(["POST"], "/post", { try echo($0) }),
        Route(["PUT"], "/put", { try echo($0) }),
        Route(["PATCH"], "/patch", { try echo($0) }),
        Route(["DELETE"], "/delete", { try echo($0) }),
        Route(nil, "/anything/*rest", { try echo($0) }),
        Route(["GET"], "/headers", { .json(["headers": $0.headersJSON]) }),
        Route(nil, "/status/:code", status),
        Route(nil, "/delay/:seconds", delay),
        Route(["GET", "POST"], "/response-headers", responseHeaders),
    ]

    /// The echo JSON: method, url, path, args, headers, form, json, data, bodyLength,
    /// bodySHA256 (plus `files` for multipart bodies). `data` is the body as UTF-8 text, or a
    /// `data:application/octet-stream;base64,` URL when it is not UTF-8 (empty if over the limit).
    static func echo(_ request: RouteContext, status: Int = 200, headers: [(String, String)] = []) throws -> Response {
        var hasher = SHA256()
        var kept: [UInt8] = []
        var total = 0
        var overLimit = false
        while try request.body.next({ piece in
            hasher.update(piece)
            total += piece.count
            if !overLimit {
                if kept.count + piece.count <= echoBodyLimit {
                    kept.append(contentsOf: piece)
                } else {
                    overLimit = true
                    kept = []
                }
            }
        }) {}

        var form: JSONValue = [:]
        var files: JSONValue?
        let mediaType = request.mediaType
        if mediaType == "application/x-www-form-urlencoded" {
            form = QueryItems(String(decoding: kept, as: UTF8.self)).json
        } else if mediaType == "multipart/form-data", let boundary = request.contentTypeParameter("boundary") {
            (form, files) = multipartFields(kept, boundary: boundary)
        }

        var members: [(String, JSONValue)] = [
            ("method", .string(request.method)),
            ("url", .string(request.url)),
            ("path", .string(request.head.path)),
            ("args", request.query.json),
            ("headers", request.headersJSON),
            ("form", form),
        ]
        if let files { members.append(("files", files)) }
        members += [
            ("json", kept.isEmpty ? .null : JSONParser.parse(kept) ?? .null),
            ("data", .string(overLimit ? "" : textOrDataURL(kept))),
            ("bodyLength", .int(total)),
            ("bodySHA256", .string(SHA256.hexString(hasher.finalize()))),
        ]
        return .json(.object(members), status: status, headers: headers)
    }

    private static func textOrDataURL(_ bytes: [UInt8]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return "data:application/octet-stream;base64," + Data(bytes).base64EncodedString()
    }

    /// Fields without a filename go to `form`, files to `files` (name → content), as httpbin does.
    /// A malformed body gives empty objects rather than an error: echo routes echo.
    private static func multipartFields(_ body: [UInt8], boundary: String) -> (JSONValue, JSONValue) {
        guard let parser = MultipartParser(boundary: boundary) else { return ([:], [:]) }
        var form: [(String, JSONValue)] = []
        var files: [(String, JSONValue)] = []
        var current: MultipartParser.Part?
        var content: [UInt8] = []
        parser.onPartBegin = { part in
            current = part
            content = []
        }
        parser.onPartData = { content.append(contentsOf: $0) }
        parser.onPartEnd = {
            guard let part = current else { return }
            let name = part.name ?? ""
            if part.filename != nil {
                files.append((name, .string(textOrDataURL(content))))
            } else {
                form.append((name, .string(String(decoding: content, as: UTF8.self))))
            }
        }
        do {
            try body.withUnsafeBytes { try parser.feed($0) }
            try parser.finish()
        } catch {
            return ([:], [:])
        }
        return (.object(form), .object(files))
    }

    /// `/status/{code}` for 200–599: a small JSON body (none for 204 and 304); redirects
    /// point at /get so a client following them ends somewhere.
    private static func status(_ request: RouteContext) throws -> Response {
        guard let code = Int(request.parameter("code")), (200...599).contains(code) else {
            return .error("status must be an integer from 200 to 599", code: "400", status: 400)
        }
        var headers: [(String, String)] = []
        if [301, 302, 303, 307, 308].contains(code) { headers.append(("Location", "/get")) }
        if code == 401 { headers.append(("WWW-Authenticate", "Basic realm=\"sample\"")) }
        if Response.forbidsBody(code) { return Response(status: code, headers: headers) }
        return .json(["status": .int(code), "message": .string(HTTPStatus.reason(code))], status: code, headers: headers)
    }

    /// `/delay/{seconds}` (fractional, capped at 30): waits, then echoes. `stop()` cuts the wait short.
    private static func delay(_ request: RouteContext) throws -> Response {
        guard let seconds = Double(request.parameter("seconds")), seconds.isFinite, seconds >= 0 else {
            return .error("delay must be a non-negative number of seconds", code: "400", status: 400)
        }
        guard request.server.wait(seconds: min(seconds, 30)) else {
            return .error("server stopping", code: "503", status: 503)
        }
        return try echo(request)
    }

    /// Sets each query item as a response header and echoes them as JSON. Names must be
    /// tokens and values printable; framing headers are refused because they would corrupt
    /// the response itself.
    private static func responseHeaders(_ request: RouteContext) throws -> Response {
        var headers: [(String, String)] = []
        let framing: Set<String> = ["content-length", "transfer-encoding", "connection"]
        for (name, value) in request.query.items {
            guard !name.isEmpty, name.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != UInt8(ascii: ":") }),
                  value.unicodeScalars.allSatisfy({ $0 == "\t" || ($0.value >= 0x20 && $0.value != 0x7f) }) else {
                return .error("invalid header \(name)", code: "400", status: 400)
            }
            guard !framing.contains(name.lowercased()) else {
                return .error("header \(name) cannot be set", code: "400", status: 400)
            }
            headers.append((name, value))
        }
        if !headers.contains(where: { $0.0.lowercased() == "content-type" }) {
            headers.insert(("Content-Type", Response.jsonContentType), at: 0)
        }
        return Response(status: 200, headers: headers, body: .bytes(request.query.json.encoded()))
    }
}
