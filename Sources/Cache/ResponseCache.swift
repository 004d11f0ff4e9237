import Dispatch
import Foundation
import HTTPCore

/// The policy runner: the one place where ``CachePolicy`` is executed, used by both front
/// ends (directly through `run(_:request:ignoredParameters:keyHeaders:queue:isCacheable:network:deliver:)`
/// or as the core pipeline's ``CacheStep`` through ``step(for:ignoredParameters:keyHeaders:)``).
///
/// Lookups and stores run on the store's serial queue, never on the caller's thread or the
/// engine's loop thread. A disk problem never fails a request: the cache behaves as a miss
/// and the problem goes to ``reporter``.
public final class ResponseCache: Sendable {
    /// The process-wide cache: ``DiskCache/defaultDirectory(name:)`` for `"chain"`
    /// (`$XDG_CACHE_HOME/chain` or `~/.cache/chain`), 100 MiB, evicting down to 80%, at most
    /// 10 MiB per entry, 4 MiB of hot entries held in memory. Opens the directory on first use. Another process using the same
    /// directory at the same time makes this one read-only (see ``DiskCache``).
    public static let shared = ResponseCache(store: DiskCache(defaultDirectoryNamed: "chain"))

    /// The store the entries live in; use it for management (size, count, removal).
    public let store: DiskCache

    /// The current time for ages and stored-at times: the store's clock.
    var clock: @Sendable () -> Date { store.clock }

    /// Makes a cache over its own directory.
    ///
    /// - Parameters:
    ///   - directory: where entries are stored; created 0700 if missing.
    ///   - maximumSize: default 100 MiB (``DiskCache/defaultMaximumSize``).
    ///   - lowWatermark: default 0.8: eviction goes down to 80% of `maximumSize`.
    ///   - maximumEntrySize: default 10 MiB; larger bodies are not stored.
    ///   - memoryBudget: bytes of hot entries held in memory, default 4 MiB
    ///     (``DiskCache/defaultMemoryBudget``); 0 reads every hit from disk.
    ///   - clock: the current time, default `Date()`; tests inject one.
    ///   - reporter: told about damaged entries and disk errors; default: the global hooks
    ///     (``CacheEvent/reportToHooks``).
    public convenience init(directory: URL, maximumSize: Int64 = DiskCache.defaultMaximumSize,
                            lowWatermark: Double = DiskCache.defaultLowWatermark,
                            maximumEntrySize: Int64 = DiskCache.defaultMaximumEntrySize,
                            memoryBudget: Int = DiskCache.defaultMemoryBudget,
                            clock: @escaping @Sendable () -> Date = { Date() },
                            reporter: @escaping @Sendable (CacheEvent) -> Void = CacheEvent.reportToHooks) {
        self.init(store: DiskCache(directory: directory, maximumSize: maximumSize, lowWatermark: lowWatermark,
                                   maximumEntrySize: maximumEntrySize, memoryBudget: memoryBudget, clock: clock,
                                   reporter: reporter))
    }

    /// Makes a cache over an existing store (sharing it with whoever else uses it).
    public init(store: DiskCache) {
        self.store = store
    }

    /// The cache of one user (or other partition): entries in the store's namespace `name`
    /// (see ``DiskCache/namespace(_:)``). Keys already separate users by their credentials;
    /// a namespace also lets one user's entries be counted and removed together.
    public func namespace(_ name: String) -> ResponseCache {
        ResponseCache(store: store.namespace(name))
    }

    /// Told about damaged entries, disk errors, read-only opening and eviction (the store's
    /// ``DiskCache/reporter``). Default: the global hooks (``CacheEvent/reportToHooks``).
    public var reporter: @Sendable (CacheEvent) -> Void {
        get { store.reporter }
        set { store.reporter = newValue }
    }

    /// The transfer a policy may perform: send the request, call the completion exactly
    /// once, and return something that cancels it (or `nil`).
    package typealias Network = @Sendable (HTTPRequest, @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void)
        -> (any CancellableTransfer)?

    /// Runs one call under a policy (see ``CachePolicy`` for what each one does).
    ///
    /// - Parameters:
    ///   - policy: how to use the cache.
    ///   - request: the request as it will be sent; its key is computed off the caller's thread.
    ///   - ignoredParameters: parameter names left out of the key (see ``CacheKey/init(request:ignoredParameters:keyHeaders:)``); default none.
    ///   - keyHeaders: request header names whose values are part of the key besides the
    ///     credential-like ones (see ``CacheKey/init(request:ignoredParameters:keyHeaders:)``); default none.
    ///   - queue: where `deliver` runs.
    ///   - isCacheable: the plan's acceptance test (validation passed, envelope success);
    ///     consulted only for responses the cache's own rules allow (2xx but not 206, not
    ///     truncated, not cancelled, within the per-entry limit). Runs on the store's queue.
    ///   - network: performs the transfer, e.g. `{ request, done in HTTPClient.shared.send(request, completion: done) }`.
    ///   - deliver: called once, or twice for a `.fileFirst` hit, in order, never concurrently,
    ///     on `queue`. Stored copies have `source == .cache`.
    /// - Returns: a handle that cancels the call.
    @discardableResult
    package func run(_ policy: CachePolicy, request: HTTPRequest, ignoredParameters: Set<String> = [],
                    keyHeaders: Set<String> = [], queue: DispatchQueue,
                    isCacheable: @escaping @Sendable (HTTPResponse) -> Bool, network: @escaping Network,
                    deliver: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) -> CachedCall {
        let call = CachedCall(queue: queue) { result, _ in deliver(result) }
        execute(PolicyRun(policy: policy, request: request, ignoredParameters: ignoredParameters, keyHeaders: keyHeaders,
                          isCacheable: isCacheable, network: network, call: call))
        return call
    }

    /// The core pipeline's cache step for a policy (``CallOptions/cache``). Its deliveries
    /// run one after another on the store's queue, where the pipeline queues them for its
    /// callback queue; cancelling is the pipeline's business (it cancels the transfer its
    /// `network` closure started). `ignoredParameters` and `keyHeaders` (default none) shape
    /// the key as in `CacheKey.init(request:ignoredParameters:keyHeaders:)`.
    public func step(for policy: CachePolicy, ignoredParameters: Set<String> = [], keyHeaders: Set<String> = []) -> any CacheStep {
        ResponseCacheStep(cache: self, policy: policy, ignoredParameters: ignoredParameters, keyHeaders: keyHeaders)
    }

    /// Removes the stored response for a request; `completion` gets whether there was one.
    /// Runs on the store's queue. `ignoredParameters` and `keyHeaders` (default none) must be
    /// those the response was stored with.
    public func removeResponse(for request: HTTPRequest, ignoredParameters: Set<String> = [], keyHeaders: Set<String> = [],
                               completion: @escaping @Sendable (Bool) -> Void) {
        store.enqueueMutation({
            CacheKey(request: request, ignoredParameters: ignoredParameters, keyHeaders: keyHeaders)
                .map { self.store.removeEntry(for: $0) } ?? false
        }, completion: completion)
    }

    /// Removes the stored response for a request; returns whether there was one (see
    /// ``removeResponse(for:ignoredParameters:keyHeaders:completion:)``).
    @discardableResult
    public func removeResponse(for request: HTTPRequest, ignoredParameters: Set<String> = [],
                               keyHeaders: Set<String> = []) async -> Bool {
        await withCheckedContinuation { continuation in
            removeResponse(for: request, ignoredParameters: ignoredParameters, keyHeaders: keyHeaders) {
                continuation.resume(returning: $0)
            }
        }
    }

    /// Reads the stored response for a request, flagged `.cache`, or `nil` — also when its
    /// `Vary` fields do not match the request's. Runs on the store's queue. `ignoredParameters`
    /// and `keyHeaders` (default none) must be those the response was stored with.
    public func storedResponse(for request: HTTPRequest, ignoredParameters: Set<String> = [], keyHeaders: Set<String> = [],
                               completion: @escaping @Sendable (HTTPResponse?) -> Void) {
        store.queue.async {
            let entry = CacheKey(request: request, ignoredParameters: ignoredParameters, keyHeaders: keyHeaders)
                .flatMap { self.store.readEntry(for: $0) }
                .flatMap { CacheStrategy.varyMatches($0, requestHeaders: request.headers) ? $0 : nil }
            completion(entry?.response)
        }
    }
}
