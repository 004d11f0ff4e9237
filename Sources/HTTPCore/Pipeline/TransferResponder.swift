/// Answers a request's transfer step in place of the network, or hands it on: what a stub
/// table or a record/replay cassette (module `ChainTesting`) plugs into the pipeline, in the
/// way of OkHttp's network interceptors.
///
/// A responder sees each request as it would go on the wire — adapted by the interceptors,
/// with the jar's cookies, every redirect hop and every retry on its own — and its answer goes
/// through the rest of the pipeline exactly as a transfer's would: redirects, retriers,
/// validation, envelopes, decoding, the cache step, the jar and the hooks. Set responders on
/// ``CallOptions/responders`` (the front ends set them from their configuration).
///
/// A responder that waits (a stub's delay) need not watch for a cancel or the total timeout:
/// the call fails at once and ignores the answer that comes later. Only a responder's first
/// answer counts: a second one, or one that comes after the call moved on to a retry or the
/// next redirect hop, is ignored. A responder that never answers holds the call until its
/// total timeout (or forever without one), as an interceptor that never answers does.
public protocol TransferResponder: Sendable {
    /// Answers `request` by calling `completion` exactly once, on any thread — with a response
    /// (``ResponseSource/stub`` is the usual source) or an error — or sends it on with
    /// `chain.proceed(_:completion:)` (the next responder, then the transport) and answers
    /// with what comes back, as it is or changed.
    func respond(to request: HTTPRequest, chain: TransferChain,
                 completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void)
}

/// The rest of the transfer step after a responder: the responders after it, then the
/// transport.
public struct TransferChain: Sendable {
    private let send: @Sendable (HTTPRequest, @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) -> Void

    package init(send: @escaping @Sendable (HTTPRequest, @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) -> Void) {
        self.send = send
    }

    /// Sends `request` on; `completion` gets what the rest of the chain answered (the network's
    /// response, or its error), once, on any thread — also when the call was cancelled or
    /// timed out meanwhile. One chain proceeds once: a second call fails at once with
    /// ``NetworkError/Kind/invalidRequest`` and sends nothing.
    public func proceed(_ request: HTTPRequest,
                        completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        send(request, completion)
    }
}
