import HTTPCore

/// Something in flight that can be cancelled: what a policy runner's `network` closure
/// returns so that cancelling a ``CachedCall`` cancels the transfer too.
///
/// ``HTTPTask`` conforms, so `{ request, done in HTTPClient.shared.send(request, completion: done) }`
/// is a valid `network` closure as it is.
public protocol CancellableTransfer: Sendable {
    /// Cancels the transfer; its completion must still be called (with a cancelled error).
    func cancel()
}

/// `HTTPTask.cancel()` already has the required meaning.
extension HTTPTask: CancellableTransfer {}
