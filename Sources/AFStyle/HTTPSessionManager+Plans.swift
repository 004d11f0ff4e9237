import Foundation

/// The response plans of the facade's calls: the response serializer's checks (and, with an
/// envelope, the business code) as validation, so only accepted responses are cached.
extension HTTPSessionManager {
    /// `responseObject` as the response serializer makes it; the JSON serializer checks and
    /// unwraps the manager's envelope.
    static func objectPlan(_ configuration: Configuration) -> ResponsePlan<Any?> {
        let serializer = configuration.responseSerializer
        let envelope = serializer.kind == .json ? configuration.envelope : nil
        let decoding = configuration.jsonDecoding
        return ResponsePlan(validate: { response throws(NetworkError) in
            try serializer.validate(response)
            try envelope?.check(response, decoding: decoding)
        }, decode: { response throws(NetworkError) in
            try serializer.responseObject(for: response, envelope: envelope, decoding: decoding)
        })
    }

    /// Only the status matters (`HEAD`, whose response has no body).
    static func statusPlan(_ configuration: Configuration) -> ResponsePlan<Void> {
        let serializer = configuration.responseSerializer
        return ResponsePlan(validate: { response throws(NetworkError) in
            try serializer.validateStatus(response)
        }, decode: { _ in })
    }

    /// The body (or the envelope's payload) decoded into `T` with the manager's ``HTTPSessionManager/jsonDecoding``.
    static func decodablePlan<T: Decodable & Sendable>(_ type: T.Type, _ configuration: Configuration) -> ResponsePlan<T> {
        let serializer = configuration.responseSerializer
        let envelope = configuration.envelope
        let decoding = configuration.jsonDecoding
        return ResponsePlan(validate: { response throws(NetworkError) in
            try serializer.validate(response)
            try envelope?.check(response, decoding: decoding)
        }, decode: { response throws(NetworkError) in
            try Envelope.decode(T.self, at: envelope?.payloadPath, from: response, decoding: decoding)
        })
    }
}
