import Digest

/// Multipart uploads, parsed and hashed as they stream in.
extension Router {
    static let uploadRoutes: [Route] = [
        Route(["POST", "PUT"], "/upload", upload),
    ]

    /// `{"parts":[{"name","filename","contentType","size","sha256"}],"bodyLength":N}`; 400 when
    /// the body is not multipart/form-data with a boundary, or is malformed.
    private static func upload(_ request: RouteContext) throws -> Response {
        guard request.mediaType == "multipart/form-data", let boundary = request.contentTypeParameter("boundary"),
              let parser = MultipartParser(boundary: boundary) else {
            return .error("expected multipart/form-data with a boundary", code: "400", status: 400)
        }
        var parts: [JSONValue] = []
        var current: MultipartParser.Part?
        var hasher = SHA256()
        var size = 0
        parser.onPartBegin = { part in
            current = part
            hasher = SHA256()
            size = 0
        }
        parser.onPartData = { bytes in
            hasher.update(bytes)
            size += bytes.count
        }
        parser.onPartEnd = {
            guard let part = current else { return }
            parts.append([
                "name": part.name.map { .string($0) } ?? .null,
                "filename": part.filename.map { .string($0) } ?? .null,
                "contentType": part.contentType.map { .string($0) } ?? .null,
                "size": .int(size),
                "sha256": .string(SHA256.hexString(hasher.finalize())),
            ])
            current = nil
        }
        do {
            while try request.body.next({ try parser.feed($0) }) {}
            try parser.finish()
        } catch let error as MultipartParser.Malformed {
            return .error("malformed multipart body: \(error.reason)", code: "400", status: 400)
        }
        return .json(["parts": .array(parts), "bodyLength": .int(request.body.bytesRead)])
    }
}
