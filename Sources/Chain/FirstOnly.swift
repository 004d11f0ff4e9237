import Synchronization

/// Lets only the first of several calls through (a `.fileFirst` hit delivers twice; a single
/// waiter takes the first delivery).
final class FirstOnly: Sendable {
    private let taken = Mutex(false)

    /// `true` for the first call, `false` for every later one.
    func claim() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
}
