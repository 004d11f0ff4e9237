import Synchronization

/// Decides, once, who ends one wait of a call (an interceptor's answer, a retry delay, a
/// stub's delay): the awaited step when it comes back, or a cancel or the total timeout when
/// they come first. Whoever claims second does nothing, so the call still ends exactly once.
final class WaitClaim: Sendable {
    private let isClaimed = Atomic<Bool>(false)

    /// Returns `true` for the first caller only.
    func claim() -> Bool {
        !isClaimed.exchange(true, ordering: .acquiringAndReleasing)
    }
}
