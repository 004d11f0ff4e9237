/// Carries one delivery from the callback queue to the one waiter that takes it (an async
/// continuation or a blocked thread).
///
/// `@unchecked Sendable` because `Value` may be non-Sendable (`Any` from JSON): the delivery
/// is made on the callback queue, handed over exactly once, and never touched again by the
/// side that made it, so no two threads ever use it at the same time.
struct DeliveryHandOff<Value>: @unchecked Sendable {
    let delivery: Delivery<Value>
}
