/// How a client hands finished transfers from its engine's loop thread to the callback queues:
/// tuned for latency (``automatic``, the default), or plain libdispatch (``off``).
///
/// Set with ``HTTPClient/Configuration/delivery``; fixed for the client's lifetime. Either
/// way every completion runs exactly once on its callback queue, in the same order.
public enum DeliveryTuning: Sendable, Hashable {
    /// The default: the hand-off is tuned for latency, spending a little processor time on
    /// short waits.
    ///
    /// - After a loop pass that finished transfers, the loop thread waits up to 50 µs,
    ///   yielding the processor, for the next request before it sleeps.
    /// - The callback queues the library makes (the client's default queue and those of Chain
    ///   and AFStyle) stay awake after delivering a transfer's result while another transfer
    ///   is in flight: up to 50 µs with several in flight, up to 200 µs for the one request
    ///   of a chain whose round trips take at most 150 µs, not at all for a slower chain.
    /// - Completions that finish in one loop pass and go to the same such queue are queued
    ///   as one block, and a call on such a queue runs its blocks on it directly instead of
    ///   on a serial queue of its own.
    ///
    /// Nothing waits when the process may run on one processor only, or on queues you make.
    case automatic
    /// No tuning: no thread waits by yielding (neither the loop thread nor a callback queue),
    /// each completion is one `DispatchQueue.async` of its own, and each call runs its blocks
    /// on a serial queue of its own that targets the callback queue. For programs where
    /// processor time matters more than the microseconds of a thread wakeup per request.
    case off
}
