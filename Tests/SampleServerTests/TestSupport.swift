import Foundation
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

/// A fresh directory under the system's temporary one, removed with everything in it when
/// the value goes away. Its path is kept short: a Unix socket path may have at most 107 bytes.
final class TemporaryDirectory {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("chain-ss-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `name` inside the directory.
    func file(_ name: String) -> String { path + "/" + name }
}
