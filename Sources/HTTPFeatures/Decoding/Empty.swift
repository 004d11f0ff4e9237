import HTTPCore

/// A type a typed call decodes when the answer has no content worth reading: a `204`, a `205`,
/// a `HEAD`, or any body whose content the caller ignores — the value a generic helper
/// (`func mapModel<T: Decodable>`) is called with where Swift code would write `Void`, as
/// Alamofire's `Empty`.
///
/// ```swift
/// Request.url(logoutURL).method(.post).response(Empty.self) { result in … }   // 204: .success(Empty.value)
/// manager.DELETE("user/7", parameters: nil, as: Empty.self, headers: nil, success: { _, _ in … }, failure: …)
/// ```
///
/// An empty body (no bytes, or only whitespace) decodes to ``value`` whatever the status. A
/// body with content must still be JSON — a typed call says the answer is JSON, and an HTML error
/// page is a failure — but its content is ignored, so `{}`, `{"ok":true}` and `null` all give
/// ``value``. Under an envelope the code checks run as for every typed call; a missing or `null`
/// payload gives ``value``.
public struct Empty: Codable, Sendable, Hashable, EmptyResponse {
    /// The one value.
    public static let value = Empty()

    /// The one value (``value``).
    public init() {}

    /// Accepts any JSON value and ignores it.
    public init(from decoder: any Decoder) throws {}

    /// Encodes as `{}`.
    public func encode(to encoder: any Encoder) throws {
        _ = encoder.container(keyedBy: DynamicCodingKey.self)
    }

    /// ``value``.
    public static func emptyValue() -> Empty { value }
}

/// A type that stands for "no content": what the shared decode step returns for an empty body
/// instead of failing. ``Empty`` is the one the library ships; conform a type of your own (an
/// app's `NoContent`) to get the same treatment.
public protocol EmptyResponse {
    /// The value an empty body decodes to.
    static func emptyValue() -> Self
}
