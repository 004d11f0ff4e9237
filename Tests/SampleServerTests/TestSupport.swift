@testable import SampleServer

extension JSONValue {
    /// The integer if this is an integral number.
    var intValue: Int? {
        if case .number(let text) = self { return Int(text) }
        return nil
    }

    /// The elements if this is an array.
    var arrayValue: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }
}

extension RawResponse {
    /// The body parsed as JSON, or `.null` when it is not JSON (so `#expect`s fail readably).
    var json: JSONValue { JSONParser.parse(body) ?? .null }
}

/// A multipart/form-data body from `(name, filename, contentType, content)` parts.
func multipartBody(boundary: String, parts: [(String, String?, String?, [UInt8])]) -> [UInt8] {
    var body: [UInt8] = []
    for (name, filename, contentType, content) in parts {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\""
        if let filename { head += "; filename=\"\(filename)\"" }
        head += "\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        head += "\r\n"
        body += Array(head.utf8) + content + Array("\r\n".utf8)
    }
    body += Array("--\(boundary)--\r\n".utf8)
    return body
}
