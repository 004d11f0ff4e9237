import Foundation

/// One recorded exchange, as the cassette file keeps it: the request as it went on the wire
/// (redacted) and the response that came back (headers redacted, body as it was).
///
/// A body is kept exactly: bytes that are valid UTF-8 as the string field `body`, anything
/// else as base64 in `bodyBase64`; an empty body has neither field, and no headers no
/// `headers` field.
struct CassetteInteraction: Sendable, Hashable, Codable {
    /// A header field; a list of them keeps the order and the repeats of the original.
    struct Header: Sendable, Hashable, Codable {
        var name: String
        var value: String
    }

    /// The request, redacted: headers, URL query and body.
    struct RecordedRequest: Sendable, Hashable, Codable {
        var method: String
        var url: String
        var headers: [Header]
        var body: Data

        init(method: String, url: String, headers: [Header], body: Data) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }

        private enum CodingKeys: String, CodingKey {
            case method, url, headers, body, bodyBase64
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            method = try container.decode(String.self, forKey: .method)
            url = try container.decode(String.self, forKey: .url)
            headers = try container.decodeIfPresent([Header].self, forKey: .headers) ?? []
            body = try container.decodeBody(text: .body, base64: .bodyBase64)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(method, forKey: .method)
            try container.encode(url, forKey: .url)
            // Left out when empty: Foundation prints an empty array over three lines.
            if !headers.isEmpty { try container.encode(headers, forKey: .headers) }
            try container.encodeBody(body, text: .body, base64: .bodyBase64)
        }
    }

    /// The response: its status, its headers (redacted) in order, its body as it was.
    struct RecordedResponse: Sendable, Hashable, Codable {
        var status: Int
        /// `HTTP/1.1`, `HTTP/2`, … (``HTTPVersion``'s raw values).
        var httpVersion: String
        var headers: [Header]
        var body: Data

        init(status: Int, httpVersion: String, headers: [Header], body: Data) {
            self.status = status
            self.httpVersion = httpVersion
            self.headers = headers
            self.body = body
        }

        private enum CodingKeys: String, CodingKey {
            case status, httpVersion, headers, body, bodyBase64
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            status = try container.decode(Int.self, forKey: .status)
            guard (100...999).contains(status) else {
                throw DecodingError.dataCorruptedError(forKey: .status, in: container,
                                                       debugDescription: "status \(status) is not an HTTP status code")
            }
            httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion) ?? "HTTP"
            headers = try container.decodeIfPresent([Header].self, forKey: .headers) ?? []
            body = try container.decodeBody(text: .body, base64: .bodyBase64)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(status, forKey: .status)
            try container.encode(httpVersion, forKey: .httpVersion)
            // Left out when empty: Foundation prints an empty array over three lines.
            if !headers.isEmpty { try container.encode(headers, forKey: .headers) }
            try container.encodeBody(body, text: .body, base64: .bodyBase64)
        }
    }

    var request: RecordedRequest
    var response: RecordedResponse
}

extension KeyedEncodingContainer {
    /// Writes `body` as text under `text` when it is valid UTF-8, else as base64 under
    /// `base64`; nothing for an empty body.
    mutating func encodeBody(_ body: Data, text: Key, base64: Key) throws {
        guard !body.isEmpty else { return }
        if let string = String(validating: body, as: UTF8.self) {
            try encode(string, forKey: text)
        } else {
            try encode(body.base64EncodedString(), forKey: base64)
        }
    }
}

extension KeyedDecodingContainer {
    /// Reads a body written by `encodeBody`: the text's UTF-8 bytes, or the base64's bytes;
    /// empty when neither is there.
    func decodeBody(text: Key, base64: Key) throws -> Data {
        let string = try decodeIfPresent(String.self, forKey: text)
        let encoded = try decodeIfPresent(String.self, forKey: base64)
        switch (string, encoded) {
        case (nil, nil):
            return Data()
        case (let string?, nil):
            return Data(string.utf8)
        case (nil, let encoded?):
            guard let data = Data(base64Encoded: encoded) else {
                throw DecodingError.dataCorruptedError(forKey: base64, in: self, debugDescription: "not valid base64")
            }
            return data
        case (_?, _?):
            throw DecodingError.dataCorruptedError(forKey: base64, in: self,
                                                   debugDescription: "a body has \(text.stringValue) or \(base64.stringValue), not both")
        }
    }
}
