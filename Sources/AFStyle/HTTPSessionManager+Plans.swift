import Foundation

/// The response plans of the facade's calls, made as Chain makes its own
/// (``ResponsePlan/init(validation:serializer:)``): the response serializer's checks (and,
/// with an envelope, the business code) as the validation, so only accepted responses are
/// cached, and its `responseObject` or the typed model as the serializer.
extension HTTPSessionManager {
    /// `responseObject` as the response serializer makes it; the JSON serializer checks and
    /// unwraps the manager's envelope.
    static func objectPlan(_ configuration: Configuration) -> ResponsePlan<Any?> {
        let serializer = configuration.responseSerializer
        let decoding = configuration.jsonDecoding
        let envelope = serializer.kind == .json ? configuration.envelope : nil
        return ResponsePlan(validation: serializer.validation(envelope: envelope, decoding: decoding),
                            serializer: ResponseSerializer { response, envelope throws(NetworkError) in
                                try serializer.responseObject(for: response, envelope: envelope, decoding: decoding)
                            })
    }

    /// Only the status matters (`HEAD`, whose response has no body).
    static func statusPlan(_ configuration: Configuration) -> ResponsePlan<Void> {
        let status = configuration.responseSerializer.statusAcceptance
        return ResponsePlan(validation: ResponseValidation(status: status, decoding: configuration.jsonDecoding),
                            serializer: .void)
    }

    /// The body (or the envelope's payload) decoded into `T` with the manager's ``HTTPSessionManager/jsonDecoding``.
    static func decodablePlan<T: Decodable & Sendable>(_ type: T.Type, _ configuration: Configuration,
                                                       keyPath: String? = nil) -> ResponsePlan<T> {
        let decoding = configuration.jsonDecoding
        let validation = configuration.responseSerializer.validation(envelope: envelope(configuration, keyPath: keyPath),
                                                                     decoding: decoding)
        return ResponsePlan(validation: validation, serializer: .decodable(T.self, decoding: decoding))
    }

    /// The manager's envelope with its payload at `keyPath` (from the body's top), or a plain
    /// key path when there is no envelope; the envelope as it is when `keyPath` is `nil`.
    package static func envelope(_ configuration: Configuration, keyPath: String?) -> Envelope? {
        guard let keyPath else { return configuration.envelope }
        return (configuration.envelope ?? Envelope(checks: [])).payload(at: keyPath)
    }
}
