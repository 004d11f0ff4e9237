import Dispatch
import Foundation

// Blocking forms for scripts and command-line tools — the counterpart of RxBlocking's
// `toBlocking().first()`. Each blocks the calling thread on a semaphore until the first
// delivery; the guidance below is repeated on `blockingValue(_:)`, which the others point to.
extension Request {
    /// Sends the request, blocks the calling thread until the first delivery (the stored copy
    /// for a `.fileFirst` hit), and returns the decoded model.
    ///
    /// Safe on the main thread of a command-line program, also with `.queue(.main)`, and on
    /// the callback queue itself: when waiting on the callback queue would deadlock (the
    /// calling thread is running it, or it is the main queue and this is the main thread),
    /// the delivery, progress and hooks of this call run on a private queue instead — and an
    /// identical request already in flight on the callback queue is not shared (the core
    /// shares a transfer only between calls that deliver on the same queue), so the call never
    /// waits for the queue its thread holds.
    ///
    /// Where not to use it:
    /// - in async code (it is unavailable there: it would block a thread of Swift's small
    ///   cooperative pool) — use ``value(_:)``;
    /// - inside a completion, progress closure or hook: it does not deadlock, but every other
    ///   delivery waiting on that serial queue stalls until this request ends;
    /// - when something this request needs runs on the blocked thread's queue (a progress
    ///   closure or interceptor that calls `DispatchQueue.main.sync` while the main thread
    ///   waits) — that does deadlock;
    /// - on the main thread of an app whose UI must stay responsive.
    ///
    /// - Throws: ``NetworkError``.
    @available(*, noasync, message: "blocks the thread; use value(_:) in async code")
    public func blockingValue<T: Decodable & Sendable>(_ type: T.Type) throws(NetworkError) -> T {
        try blockingFirstDelivery(serializer: { .decodable(T.self, decoding: $0) }).result.get()
    }

    /// Sends the request and waits until it succeeded or failed (the body is not decoded).
    /// Where it may be used: see ``blockingValue(_:)``.
    /// - Throws: ``NetworkError``.
    @available(*, noasync, message: "blocks the thread; use response() in async code")
    public func blockingResponse() throws(NetworkError) {
        try blockingFirstDelivery(serializer: { _ in .void }).result.get()
    }

    /// Sends the request, waits, and returns the body as it arrived.
    /// Where it may be used: see ``blockingValue(_:)``.
    /// - Throws: ``NetworkError``.
    @available(*, noasync, message: "blocks the thread; use data() in async code")
    public func blockingData() throws(NetworkError) -> Data {
        try blockingFirstDelivery(serializer: { _ in .data }).result.get()
    }

    /// Sends the request, waits, and returns the body as text (the `Content-Type` charset,
    /// else `defaultEncoding`, default `.utf8`). Where it may be used: see ``blockingValue(_:)``.
    /// - Throws: ``NetworkError``.
    @available(*, noasync, message: "blocks the thread; use string() in async code")
    public func blockingString(defaultEncoding: String.Encoding = .utf8) throws(NetworkError) -> String {
        try blockingFirstDelivery(serializer: { _ in .string(defaultEncoding: defaultEncoding) }).result.get()
    }

    /// Sends the request, waits, and returns the body (or the envelope's payload) as
    /// Foundation objects. Where it may be used: see ``blockingValue(_:)``.
    /// - Throws: ``NetworkError``.
    @available(*, noasync, message: "blocks the thread; use json() in async code")
    public func blockingJSON() throws(NetworkError) -> Any {
        try blockingFirstDelivery(serializer: { .json(decoding: $0) }).result.get()
    }

    /// Sends the request, waits, and returns the whole first delivery (never throws).
    /// Where it may be used: see ``blockingValue(_:)``.
    @available(*, noasync, message: "blocks the thread; use delivery(_:) in async code")
    public func blockingDelivery<T: Decodable & Sendable>(_ type: T.Type) -> Delivery<T> {
        blockingFirstDelivery(serializer: { .decodable(T.self, decoding: $0) })
    }

    private func blockingFirstDelivery<Value>(serializer: (JSONDecoding) -> ResponseSerializer<Value>) -> Delivery<Value> {
        let callbackQueue = queue ?? effectiveConfiguration.callbackQueue
        let deliveryQueue = CallbackQueueProbe.waitingWouldDeadlock(on: callbackQueue)
            ? DispatchQueue(label: "chain.blocking") : nil
        let semaphore = DispatchSemaphore(value: 0)
        let slot = DeliverySlot<Value>()
        let first = FirstOnly()
        _ = start(queue: deliveryQueue, serializer: serializer) { delivery in
            guard first.claim() else { return }
            slot.store(DeliveryHandOff(delivery: delivery))
            semaphore.signal()
        }
        semaphore.wait()
        guard let handOff = slot.take() else {
            // Unreachable: the slot is filled before the semaphore is signalled.
            return Delivery(result: .failure(NetworkError(.transport, "the request ended without a delivery")),
                            response: nil, source: .network, isFinal: true, request: HTTPRequest(url: URL(fileURLWithPath: "/")))
        }
        return handOff.delivery
    }
}
