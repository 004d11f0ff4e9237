import Dispatch

/// What the pipeline needs from whatever moves bytes: start one transfer, and the hand-off
/// rules for the callback queues the transport delivers to.
///
/// The libcurl engine (module `CurlTransport`) is the transport of every real client;
/// ``FailingTransport`` answers every transfer with one error (a client whose engine could not
/// start). Stubbed answers and requests that cannot be built never reach a transport.
package protocol Transport: Sendable {
    /// Starts one transfer on behalf of `task`, sharing an identical `GET`/`HEAD` already in
    /// flight for the same `sharingQueue` when `coalesces` is set. `completion` always runs on
    /// `queue` (the pipeline relies on it), a request refused by the transport's own checks
    /// included. `queue` is `sharingQueue` exactly when that is one of this transport's callback
    /// queues (``isCallbackQueue(_:)``, asked once by the client), else a serial queue of the
    /// call's that targets it — so the transport need not ask again per transfer.
    func start(_ request: HTTPRequest, task: HTTPTask, queue: DispatchQueue, sharingQueue: DispatchQueue,
               coalesces: Bool, progress: (@Sendable (TransferProgress) -> Void)?,
               completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void)

    /// The request of the hop after `response`, a redirect of `request` that the pipeline
    /// follows: its `Location` resolved as the transport resolves URLs, with the method, body,
    /// credential and `Referer` rules of ``RedirectPolicy``. Runs on the call's queue.
    /// - Throws: ``NetworkError/Kind/invalidResponse`` for a `Location` that is no URL,
    ///   ``NetworkError/Kind/unsupportedScheme`` for a scheme the transport does not send (a
    ///   Unix socket included), with `response` attached.
    func redirectRequest(after response: HTTPResponse, of request: HTTPRequest) throws(NetworkError) -> HTTPRequest

    /// Whether `queue` is a serial callback queue of the library's that this transport's
    /// hand-off is tuned for, whose blocks the pipeline may run in place instead of on a queue
    /// of the call's own; always `false` with ``DeliveryTuning/off``.
    func isCallbackQueue(_ queue: DispatchQueue) -> Bool

    /// A serial queue for completions, tuned for this transport's hand-off as the client's
    /// ``HTTPClient/Configuration/delivery`` says.
    func makeCallbackQueue(label: String) -> DispatchQueue

    /// Called at the end of a delivery made in a transfer's completion block: the delivery may
    /// have sent another request, whose completion the transport may wait for in place (never
    /// with ``DeliveryTuning/off``).
    func deliveryEnded()

    /// Finishes the transfers in flight, then releases the transport's resources.
    func shutDownWhenIdle()
}
