import HTTPCore
/// A type whose value stands for an empty response, as Alamofire's protocol of the same name:
/// ``Envelope/decode(_:at:from:decoding:)`` returns ``emptyValue()`` for an empty body or a
/// missing or `null` envelope payload instead of failing, and ignores a non-empty JSON body.
/// ``Empty`` is the one the library provides.
public protocol EmptyResponse: Decodable {
    /// The value an empty response decodes to.
    static func emptyValue() -> Self
}
