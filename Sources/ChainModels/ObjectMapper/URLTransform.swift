import Foundation

/// URLs as strings, ObjectMapper's `URLTransform`.
public struct URLTransform: TransformType {
    /// The property's type.
    public typealias Object = URL
    /// The JSON form.
    public typealias JSON = String

    private let shouldEncodeURLString: Bool

    /// Makes the transform; with `shouldEncodeURLString` (default `true`) a string that is not
    /// a valid URL as it is gets percent-encoded (query-allowed characters) and read again.
    public init(shouldEncodeURLString: Bool = true) {
        self.shouldEncodeURLString = shouldEncodeURLString
    }

    /// The URL a string gives; `nil` for anything else.
    public func transformFromJSON(_ value: Any?) -> URL? {
        guard let string = value as? String else { return nil }
        if let url = URL(string: string) { return url }
        guard shouldEncodeURLString,
              let encoded = string.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed) else { return nil }
        return URL(string: encoded)
    }

    /// The URL's absolute string.
    public func transformToJSON(_ value: URL?) -> String? {
        value?.absoluteString
    }
}
