import Synchronization

/// One delivery handed from the callback queue to a thread blocked on a semaphore.
final class DeliverySlot<Value>: Sendable {
    private let storage = Mutex<DeliveryHandOff<Value>?>(nil)

    /// Keeps the delivery until ``take()``.
    func store(_ handOff: DeliveryHandOff<Value>) {
        storage.withLock { $0 = handOff }
    }

    /// The delivery, once stored; `nil` before.
    func take() -> DeliveryHandOff<Value>? {
        storage.withLock { $0.take() }
    }
}
