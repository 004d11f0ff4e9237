import Foundation

// async/await forms. Cancelling the Swift task cancels the transfer; the call then throws
// (or delivers) `.cancelled`. With `.fileFirst`, the single-value forms return the first
// delivery (the stored copy on a hit); use `deliveries(_:)` or `values(_:)` to get both.
extension Request {
    /// Sends the request and returns the model decoded from the body (or the envelope's payload).
    /// - Throws: ``NetworkError`` (``NetworkError/Kind/cancelled`` when the task was cancelled).
    public func value<T: Decodable & Sendable>(_ type: T.Type) async throws(NetworkError) -> T {
        try await firstDelivery(serializer: { .decodable(T.self, decoding: $0) }).delivery.result.get()
    }

    /// Sends the request; returns when it succeeded (the body is not decoded).
    /// - Throws: ``NetworkError``.
    public func response() async throws(NetworkError) {
        try await firstDelivery(serializer: { _ in .void }).delivery.result.get()
    }

    /// Sends the request and returns the body as it arrived.
    /// - Throws: ``NetworkError``.
    public func data() async throws(NetworkError) -> Data {
        try await firstDelivery(serializer: { _ in .data }).delivery.result.get()
    }

    /// Sends the request and returns the body as text (the `Content-Type` charset, else
    /// `defaultEncoding`, default `.utf8`).
    /// - Throws: ``NetworkError`` (``NetworkError/Kind/decodingFailed`` for undecodable bytes).
    public func string(defaultEncoding: String.Encoding = .utf8) async throws(NetworkError) -> String {
        try await firstDelivery(serializer: { _ in .string(defaultEncoding: defaultEncoding) }).delivery.result.get()
    }

    /// Sends the request and returns the body (or the envelope's payload) as Foundation objects
    /// (parsed as for ``responseJSON(completion:)``).
    /// - Throws: ``NetworkError``.
    public func json() async throws(NetworkError) -> sending Any {
        let handOff = await firstDelivery(serializer: { .json(decoding: $0) })
        return try handOff.delivery.result.get()
    }

    /// Sends the request and returns the whole delivery: the model or the error, the
    /// response, the request as sent and the source (network, cache, stub). Never throws:
    /// failures, cancellation included, are in ``Delivery/result``.
    public func delivery<T: Decodable & Sendable>(_ type: T.Type) async -> Delivery<T> {
        await firstDelivery(serializer: { .decodable(T.self, decoding: $0) }).delivery
    }

    /// Every delivery of the request, in order: one, or two for a `.fileFirst` hit (the stored
    /// copy, then the network result). Ending the iteration early cancels the request.
    public func deliveries<T: Decodable & Sendable>(_ type: T.Type) -> AsyncStream<Delivery<T>> {
        AsyncStream { continuation in
            let task = start(serializer: { .decodable(T.self, decoding: $0) }) { delivery in
                continuation.yield(delivery)
                if delivery.isFinal { continuation.finish() }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The values of every delivery, in order — the cached copy then the fresh one under
    /// `.fileFirst` — ending with the first failure (thrown as a ``NetworkError``). Ending the
    /// iteration early cancels the request.
    public func values<T: Decodable & Sendable>(_ type: T.Type) -> AsyncThrowingStream<T, any Error> {
        AsyncThrowingStream { continuation in
            let task = start(serializer: { .decodable(T.self, decoding: $0) }) { delivery in
                switch delivery.result {
                case .success(let value):
                    continuation.yield(value)
                    if delivery.isFinal { continuation.finish() }
                case .failure(let error):
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Starts the request and waits for its first delivery; cancelling the Swift task cancels it.
    func firstDelivery<Value>(serializer: (JSONDecoding) -> ResponseSerializer<Value>) async -> DeliveryHandOff<Value> {
        await TaskCancellation.firstResult { resume in
            start(serializer: serializer) { resume(DeliveryHandOff(delivery: $0)) }
        }
    }
}
