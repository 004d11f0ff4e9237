import Foundation

// The terminal methods: each starts the request once and returns its task (cancel it any
// time; the completion then gets `.cancelled`, still exactly once). Completions run on the
// callback queue — once, or twice for a `.fileFirst` cache hit (the stored copy first).
extension Request {
    /// Starts the request and decodes the body (or the envelope's payload) as `type` with the
    /// request's decoder (FastJSON unless ``decoding(_:)`` or the configuration says otherwise).
    ///
    /// - Parameters:
    ///   - type: the model type.
    ///   - completion: the model, or the ``NetworkError`` (transport, status, business code,
    ///     decoding with its coding path).
    /// - Returns: the task, to cancel the request.
    @discardableResult
    public func response<T: Decodable & Sendable>(_ type: T.Type,
                                                  completion: @escaping @Sendable (Result<T, NetworkError>) -> Void) -> HTTPTask {
        start(serializer: { .decodable(T.self, decoding: $0) }) { completion($0.result) }
    }

    /// Starts the request when only success or failure matters: the body is not decoded, so
    /// an empty body, or an envelope with a missing or `null` payload, is a success.
    @discardableResult
    public func response(completion: @escaping @Sendable (Result<Void, NetworkError>) -> Void) -> HTTPTask {
        start(serializer: { _ in .void }) { completion($0.result) }
    }

    /// Starts the request and delivers the body as it arrived (decompressed).
    @discardableResult
    public func responseData(completion: @escaping @Sendable (Result<Data, NetworkError>) -> Void) -> HTTPTask {
        start(serializer: { _ in .data }) { completion($0.result) }
    }

    /// Starts the request and delivers the body as text in the `Content-Type` charset, else
    /// `defaultEncoding`; undecodable bytes fail with ``NetworkError/Kind/decodingFailed``.
    ///
    /// - Parameters:
    ///   - defaultEncoding: used when the response names no (known) charset. Default `.utf8`.
    ///   - completion: the text or the error.
    @discardableResult
    public func responseString(defaultEncoding: String.Encoding = .utf8,
                               completion: @escaping @Sendable (Result<String, NetworkError>) -> Void) -> HTTPTask {
        start(serializer: { _ in .string(defaultEncoding: defaultEncoding) }) { completion($0.result) }
    }

    /// Starts the request and delivers the body (or the envelope's payload) as Foundation
    /// objects (`[String: Any]`, `[Any]`, `String`, `NSNumber`, `NSNull`) — the objects
    /// `JSONSerialization` makes, parsed by FastJSON; with a `.foundation` decoding setting
    /// (``decoding(_:)``), by `JSONSerialization` itself.
    @discardableResult
    public func responseJSON(completion: @escaping @Sendable (Result<Any, NetworkError>) -> Void) -> HTTPTask {
        start(serializer: { .json(decoding: $0) }) { completion($0.result) }
    }

    /// Starts the request and delivers everything known: the model or the error, the
    /// response (status, headers, timings), the request as sent, and whether it came from
    /// the network, the cache or a stub — Alamofire's `DataResponse`.
    @discardableResult
    public func responseDelivery<T: Decodable & Sendable>(_ type: T.Type,
                                                          completion: @escaping @Sendable (Delivery<T>) -> Void) -> HTTPTask {
        start(serializer: { .decodable(T.self, decoding: $0) }, completion: completion)
    }

    /// Starts the request and makes the value with a serializer of your own (or one of
    /// ``ResponseSerializer``'s: `.data`, `.string()`, `.json`, `.void`, `.decodable(…)` —
    /// which then use the decoder you give them, FastJSON by default, not the request's).
    @discardableResult
    public func responseDelivery<Value>(using serializer: ResponseSerializer<Value>,
                                        completion: @escaping @Sendable (Delivery<Value>) -> Void) -> HTTPTask {
        start(serializer: { _ in serializer }, completion: completion)
    }

    /// Builds and starts the call; a request that cannot be built is delivered as a failure.
    func start<Value>(queue: DispatchQueue? = nil, serializer: (JSONDecoding) -> ResponseSerializer<Value>,
                      completion: @escaping @Sendable (Delivery<Value>) -> Void) -> HTTPTask {
        let call = prepare(queue: queue)
        let plan = ResponsePlan(validation: call.validation, serializer: serializer(call.decoding))
        return call.perform(plan: plan, deliver: completion)
    }
}
