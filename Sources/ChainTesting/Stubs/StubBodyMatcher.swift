import Foundation

/// What a ``StubTable`` route asks of a request's body (``StubRequest/body``).
public struct StubBodyMatcher: Sendable {
    private let test: @Sendable (StubRequest) -> Bool
    /// How the matcher reads in an unmatched request's error.
    let summary: String

    /// A matcher of your own; `summary` (default "a custom body matcher") names it in an
    /// unmatched request's error.
    public init(_ summary: String = "a custom body matcher", _ test: @escaping @Sendable (StubRequest) -> Bool) {
        self.summary = summary
        self.test = test
    }

    func matches(_ request: StubRequest) -> Bool { test(request) }

    /// The body is JSON equal to `text` (objects compare without regard to key order,
    /// numbers by value). A `text` that is no JSON matches nothing.
    public static func json(_ text: String) -> StubBodyMatcher {
        let expected = canonicalJSON(Data(text.utf8))
        return StubBodyMatcher("JSON \(text)") { request in
            guard let expected else { return false }
            return canonicalJSON(request.body) == expected
        }
    }

    /// The body is JSON equal to `value` encoded by a `JSONEncoder`; a value that cannot be
    /// encoded matches nothing.
    public static func json(_ value: some Encodable & Sendable) -> StubBodyMatcher {
        let expected = (try? JSONEncoder().encode(value)).flatMap(canonicalJSON)
        return StubBodyMatcher("JSON \(value)") { request in
            guard let expected else { return false }
            return canonicalJSON(request.body) == expected
        }
    }

    /// The form body has each of these `name=value` pairs (others may be there too).
    public static func form(_ items: [String: String]) -> StubBodyMatcher {
        StubBodyMatcher("form \(items.sorted { $0.key < $1.key })") { request in
            let sent = request.formItems
            return items.allSatisfy { name, value in sent.contains { $0.name == name && $0.value == value } }
        }
    }

    /// The body, read as UTF-8, contains `text`.
    public static func contains(_ text: String) -> StubBodyMatcher {
        StubBodyMatcher("a body containing \(text.debugDescription)") { $0.bodyText.contains(text) }
    }

    /// The body is exactly `data`.
    public static func equals(_ data: Data) -> StubBodyMatcher {
        StubBodyMatcher("a body of exactly \(data.count) bytes") { $0.body == data }
    }

    /// JSON re-serialised with sorted keys, so equal documents compare equal; `nil` for no JSON.
    private static func canonicalJSON(_ data: Data) -> Data? {
        guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return nil }
        return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
    }
}
