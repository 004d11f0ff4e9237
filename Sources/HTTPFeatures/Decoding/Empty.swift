import HTTPCore
/// The value of a response whose body means nothing: where Swift code would want `Void`
/// in a generic `Decodable` position (`func mapModel<T: Decodable>`, `BaseData<Empty>`,
/// `.response(Empty.self)`, `manager.GET(..., as: Empty.self, ...)`).
///
/// Through ``Envelope/decode(_:at:from:decoding:)`` (every typed path of both front ends):
/// - an empty body (a 204 or 205, a `HEAD` response, a 200 with no bytes or only white space)
///   gives ``value``;
/// - any other body must be JSON — so an HTML error page sent with a 200 is still a
///   ``NetworkError/Kind/decodingFailed`` failure — and its content is ignored;
/// - an envelope's missing or `null` payload gives ``value``.
///
/// Decoding it inside a model accepts any value, `null` and a missing key. It encodes as `{}`.
public struct Empty: Codable, Sendable, Hashable, EmptyResponse {
    /// The one value.
    public static let value = Empty()

    /// The one value (``value``).
    public init() {}

    /// Accepts whatever the decoder holds, without reading it.
    public init(from decoder: any Decoder) throws {}

    /// ``value``.
    public static func emptyValue() -> Empty { value }
}
