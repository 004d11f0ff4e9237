import Foundation
import HTTPCore
import HTTPFeatures

/// Typed terminal methods for ObjectMapper models: the body — or the envelope's payload, or
/// the ``Request/keyPath(_:)`` — parsed by FastJSON and mapped with `<-`.
///
/// They go through the whole pipeline as ``Request/response(_:completion:)`` does
/// (validation with the envelope's code, cache, hooks). A body that is not JSON, a payload
/// that is not an object (an array for the array forms), or a model whose `init?(map:)`
/// returns `nil` fails with ``NetworkError/Kind/decodingFailed`` naming the type. Models need
/// not be `Sendable`: each delivery maps its own.
extension Request {
    /// Starts the request and maps the payload object into `type`.
    ///
    /// - Returns: the task, to cancel the request (the completion then gets `.cancelled`).
    @discardableResult
    public func responseObject<T: BaseMappable & SendableMetatype>(_ type: T.Type,
                                                completion: @escaping @Sendable (Result<T, NetworkError>) -> Void) -> HTTPTask {
        responseDelivery(using: .mappedObject(T.self)) { completion($0.result.unwrapped()) }
    }

    /// Starts the request and maps the payload array into `[type]` (elements the model
    /// rejects are dropped, as in ObjectMapper).
    ///
    /// - Returns: the task, to cancel the request.
    @discardableResult
    public func responseArray<T: BaseMappable & SendableMetatype>(_ type: T.Type,
                                               completion: @escaping @Sendable (Result<[T], NetworkError>) -> Void) -> HTTPTask {
        responseDelivery(using: .mappedArray(T.self)) { completion($0.result.unwrapped()) }
    }

    /// Sends the request and returns the payload object mapped into `type` (the first
    /// delivery under `.fileFirst`).
    /// - Throws: ``NetworkError`` (``NetworkError/Kind/cancelled`` when the task was cancelled).
    public func object<T: BaseMappable & SendableMetatype>(_ type: T.Type) async throws(NetworkError) -> T {
        try await first(.mappedObject(T.self)).get().value
    }

    /// Sends the request and returns the payload array mapped into `[type]`.
    /// - Throws: ``NetworkError`` (``NetworkError/Kind/cancelled`` when the task was cancelled).
    public func array<T: BaseMappable & SendableMetatype>(_ type: T.Type) async throws(NetworkError) -> [T] {
        try await first(.mappedArray(T.self)).get().value
    }

    private func first<Value>(_ serializer: ResponseSerializer<MappedHandOff<Value>>) async
        -> Result<MappedHandOff<Value>, NetworkError> {
        await TaskCancellation.firstResult { resume in
            responseDelivery(using: serializer) { resume($0.result) }
        }
    }
}
