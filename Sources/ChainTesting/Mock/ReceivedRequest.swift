import Foundation

/// What a test reads from a request the kit received: a ``MockServer``'s ``RecordedRequest``
/// and a ``StubTable``'s ``StubRequest``.
public protocol ReceivedRequest: Sendable {
    /// The query items, percent-decoded, in order.
    var queryItems: [URLQueryItem] { get }
    /// The body bytes.
    var body: Data { get }
}

extension ReceivedRequest {
    /// The value of the first query item named `name`, or `nil`.
    public func queryValue(_ name: String) -> String? {
        queryItems.first { $0.name == name }?.value
    }

    /// The body read as UTF-8 (invalid bytes replaced).
    public var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The body decoded as `type` with `decoder` (default `JSONDecoder()`).
    /// - Throws: the decoder's error.
    public func decodeBody<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: body)
    }

    /// The decoded `name=value` pairs of a form body (`application/x-www-form-urlencoded`).
    public var formItems: [URLQueryItem] { FormItems.decode(bodyText) }
}

/// `a=1&b=x+y` → items; a name without `=` has an empty value.
enum FormItems {
    static func decode(_ text: String) -> [URLQueryItem] {
        func decode(_ part: Substring) -> String {
            let spaced = part.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
        return text.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            guard let equals = pair.firstIndex(of: "=") else { return URLQueryItem(name: decode(pair), value: "") }
            return URLQueryItem(name: decode(pair[..<equals]), value: decode(pair[pair.index(after: equals)...]))
        }
    }
}
