import HTTPCore
import Synchronization

/// One call under a policy: its inputs and its handle.
struct PolicyRun: Sendable {
    let policy: CachePolicy
    let request: HTTPRequest
    let ignoredParameters: Set<String>
    let keyHeaders: Set<String>
    let isCacheable: @Sendable (HTTPResponse) -> Bool
    let network: ResponseCache.Network
    let call: CachedCall
    private let computedKey = ComputedKey()

    /// Computed where it is first needed (on the caller's thread for a body in memory, else on
    /// the store's queue, since a file body is read to hash it), then kept: a `.fileFirst` call
    /// needs it for its lookup and again for its store.
    var key: CacheKey? {
        computedKey.value { CacheKey(request: request, ignoredParameters: ignoredParameters, keyHeaders: keyHeaders) }
    }
}

/// The key of one run, computed at most once.
private final class ComputedKey: Sendable {
    private let key = Mutex<CacheKey??>(nil)

    func value(_ make: () -> CacheKey?) -> CacheKey? {
        key.withLock { stored in
            if let stored { return stored }
            let made = make()
            stored = .some(made)
            return made
        }
    }
}
