import Synchronization

/// The globally installed hooks, which every request of every client and front end reports
/// to (unless a request opts out with ``CallOptions/usesGlobalHooks``).
///
/// Install once at start-up: `Hooks.shared.add(TerminalProgressHook())`.
public final class Hooks: Sendable {
    /// The global list. Empty by default.
    public static let shared = Hooks()

    private let storage = Mutex<[any HTTPHook]>([])

    /// Makes an empty list (for tests; requests report to ``shared``).
    public init() {}

    /// Appends a hook; hooks are called in the order they were added.
    public func add(_ hook: any HTTPHook) {
        storage.withLock { $0.append(hook) }
    }

    /// Removes one hook (compared by identity).
    public func remove(_ hook: any HTTPHook & AnyObject) {
        storage.withLock { hooks in
            hooks.removeAll { ($0 as AnyObject) === hook }
        }
    }

    /// Removes every hook.
    public func removeAll() {
        storage.withLock { $0.removeAll() }
    }

    /// The hooks, in order.
    public var all: [any HTTPHook] { storage.withLock { $0 } }
}
