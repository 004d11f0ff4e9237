/// Cancel-before-attach, written once: what carries a call (an ``HTTPTask``, a transfer, a
/// closure that cancels a wait) arrives after the call's handle was made, and a cancel may
/// come first. Kept inside the owner's own `Mutex`-protected state, so it adds no lock and no
/// allocation; the owner cancels what the slot hands back after leaving the lock, because a
/// cancel may call back into it.
///
/// Used by ``HTTPTask``, ``TaskCancellation``, AFStyle's `SessionTask` and the cache's
/// `CachedCall`.
package struct CancelSlot<Target> {
    /// What was attached last, until ``detach()``; also after a cancel, for reading.
    package private(set) var target: Target?
    /// Whether ``cancel()`` was called.
    package private(set) var isCancelled = false

    /// An empty, uncancelled slot.
    package init() {}

    /// Holds `target`. Returns `false` when the slot was already cancelled: the owner then
    /// cancels `target` (or fails the call) at once, outside its lock.
    package mutating func attach(_ target: Target) -> Bool {
        self.target = target
        return !isCancelled
    }

    /// Marks the slot cancelled and returns what to cancel outside the lock: the attached
    /// target, or `nil` when none is attached yet (it is cancelled on ``attach(_:)``) or the
    /// slot was cancelled before.
    package mutating func cancel() -> Target? {
        guard !isCancelled else { return nil }
        isCancelled = true
        return target
    }

    /// Lets go of the target (the call ended); the cancelled mark stays.
    package mutating func detach() {
        target = nil
    }
}
