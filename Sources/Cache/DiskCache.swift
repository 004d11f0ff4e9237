import Dispatch
import Foundation
import HTTPCore
import Synchronization

/// The on-disk store: one directory of entries, each a metadata file and a body file.
///
/// **Layout.** `<hash>.meta` (the full key, status, headers, times, validators, expiry, body
/// length and CRC-32, framed with its own length and CRC-32; files with SHA-256 in both places,
/// as earlier versions wrote them, are read too), `<hash>-<generation>.body`,
/// `.lock`, and short-lived `.tmp-*` files; `<hash>` is the SHA-256 hex of the key. The
/// directory is created 0700 and every file 0600 whatever the umask; a directory owned by
/// another user is refused.
///
/// **Atomicity.** A write goes to a uniquely named temporary file that is renamed into
/// place: first the body (under a fresh generation name, so the live body is never
/// overwritten), then the metadata — renaming the metadata is the commit. A reader therefore
/// sees the old entry or the new one, never a mix, and a writer killed at any moment leaves
/// at worst a temporary file or an unreferenced body, which the next open removes.
///
/// **Damage.** Anything that does not read back intact — a truncated file, a flipped byte,
/// a length field of 2^62 — is a miss: the entry is deleted and ``CacheEvent/corruptedEntry(file:reason:)``
/// is reported. Sizes are checked against `fstat` and the limits before any allocation.
///
/// **Memory.** Entries just read (verified) or written are held in memory up to
/// ``memoryBudget`` bytes (least recently used go first). A held entry is served only while
/// `lstat` shows both of its files with the identity they had then (device, inode, size,
/// modification and change time); otherwise the read goes to the disk as above.
///
/// **Limits.** When the total size (metadata and bodies) exceeds ``maximumSize``, the least
/// recently used entries (by read or write time, kept in each metadata file's modification
/// time so the order survives restarts) are removed until the total is at most
/// ``lowWatermark`` × ``maximumSize``. A body larger than ``maximumEntrySize`` is not stored.
///
/// **Processes.** The store takes an exclusive `flock` on `.lock` when it first touches the
/// directory. If another process — or another `DiskCache` in this one — holds it, this store
/// opens **read-only**: reads work (without updating access times or deleting damaged
/// entries), writes and removals are dropped (reported once as
/// ``CacheEvent/openedReadOnly(directory:)``), and every later write tries the lock again, so
/// the store becomes writable as soon as the other one closes.
///
/// **Threads.** Every disk operation runs on the store's own serial queue, never on the
/// caller's thread; completions are called on that queue (hop elsewhere for long work).
/// Problems never throw: a missing or unwritable directory makes every read a miss and
/// every write a no-op, reported through ``reporter``.
public final class DiskCache: Sendable {
    /// The default ``maximumSize``: 100 MiB.
    public static let defaultMaximumSize: Int64 = 100 * 1024 * 1024
    /// The default ``lowWatermark``: 0.8 (eviction stops at 80% of the maximum size).
    public static let defaultLowWatermark = 0.8
    /// The default ``maximumEntrySize``: 10 MiB.
    public static let defaultMaximumEntrySize: Int64 = 10 * 1024 * 1024
    /// The default ``memoryBudget``: 4 MiB.
    public static let defaultMemoryBudget = 4 * 1024 * 1024
    /// How often, at most, a hit served from memory writes the entry's access time to disk.
    /// The in-process order is exact; the order a restart reads back is this coarse. A hit
    /// served off the store's queue does not wait for that write: it is queued behind it.
    static let accessTimeResolution: TimeInterval = 1

    /// The directory, or `nil` when no default directory could be found (then the store
    /// is always empty).
    public let directory: URL?
    /// ``directory``'s path followed by `/`, made once: `URL.path` costs more than the rest of
    /// building a file's path, and every read and write builds two to four.
    let directoryPrefix: String?
    /// The most bytes the store keeps (metadata and bodies) before evicting.
    public let maximumSize: Int64
    /// The fraction of ``maximumSize`` eviction brings the total down to.
    public let lowWatermark: Double
    /// The largest body stored (never more than ``maximumSize``).
    public let maximumEntrySize: Int64
    /// The bytes of recently read or written entries held in memory (0: none). A held entry is
    /// served after two `lstat` calls show its files unchanged, instead of being read and
    /// checksummed again; entries over an eighth of the budget are not held.
    public let memoryBudget: Int

    /// Where all disk work runs.
    let queue: DispatchQueue
    /// Mutations queued through the public API and not yet applied. While there is one, a
    /// read goes through the queue behind it instead of ``heldEntryWithoutWaiting(for:)``, so
    /// a caller that removes and then reads sees its removal.
    let queuedMutations = Atomic<Int>(0)
    /// The time used for access times (the least-recently-used order); injectable for tests.
    let clock: @Sendable () -> Date
    let state: Mutex<State>

    /// Everything mutable, behind one lock. Operations hold it for their whole duration,
    /// which serialises them even when tests call the synchronous internals directly.
    struct State {
        enum Access: Equatable {
            case notOpened, writable, readOnly, unavailable
        }

        var access: Access = .notOpened
        var lock: DirectoryLock?
        var index: [String: IndexRecord] = [:]
        var totalSize: Int64 = 0
        var reporter: @Sendable (CacheEvent) -> Void
        var reportedReadOnly = false
        var lastOpenFailure: String?
        var namespaces: [String: DiskCache] = [:]
        var memory: MemoryTier
        /// Held entries whose access time on disk is due, marked by hits served off the store's
        /// queue; ``DiskCache/writePendingTouches()`` writes them there, behind the hits. A write
        /// is queued exactly while this is not empty.
        var pendingTouches: [String] = []
    }

    /// What the store knows about one committed entry without reading it.
    struct IndexRecord: Equatable {
        var metadataSize: Int64
        var bodyFile: String
        var bodySize: Int64
        var lastAccess: Date
        var storedAt: Date
        var size: Int64 { metadataSize + bodySize }
    }

    /// Makes a store over `directory`. Nothing touches the disk until the first operation
    /// (which runs on the store's queue).
    ///
    /// - Parameters:
    ///   - directory: the store's own directory; created (0700) if missing. Give each store
    ///     its own directory; a second store on the same one opens read-only.
    ///   - maximumSize: default ``defaultMaximumSize`` (100 MiB).
    ///   - lowWatermark: default ``defaultLowWatermark`` (0.8); clamped to 0...1.
    ///   - maximumEntrySize: default ``defaultMaximumEntrySize`` (10 MiB).
    ///   - memoryBudget: bytes of hot entries held in memory, default ``defaultMemoryBudget``
    ///     (4 MiB); 0 reads every hit from disk.
    ///   - clock: the current time, default `Date()`; tests inject a fixed clock.
    ///   - reporter: told about damaged entries, disk errors, eviction; default: the global hooks
    ///     (``CacheEvent/reportToHooks``).
    public convenience init(directory: URL, maximumSize: Int64 = DiskCache.defaultMaximumSize,
                            lowWatermark: Double = DiskCache.defaultLowWatermark,
                            maximumEntrySize: Int64 = DiskCache.defaultMaximumEntrySize,
                            memoryBudget: Int = DiskCache.defaultMemoryBudget,
                            clock: @escaping @Sendable () -> Date = { Date() },
                            reporter: @escaping @Sendable (CacheEvent) -> Void = CacheEvent.reportToHooks) {
        self.init(optionalDirectory: directory, maximumSize: maximumSize, lowWatermark: lowWatermark,
                  maximumEntrySize: maximumEntrySize, memoryBudget: memoryBudget, clock: clock, reporter: reporter)
    }

    /// Makes a store in the default directory for `name` (see ``defaultDirectory(name:)``);
    /// when there is none, the store stays empty and reports why on first use.
    /// Every other argument has the default of ``init(directory:maximumSize:lowWatermark:maximumEntrySize:memoryBudget:clock:reporter:)``.
    public convenience init(defaultDirectoryNamed name: String, maximumSize: Int64 = DiskCache.defaultMaximumSize,
                            lowWatermark: Double = DiskCache.defaultLowWatermark,
                            maximumEntrySize: Int64 = DiskCache.defaultMaximumEntrySize,
                            memoryBudget: Int = DiskCache.defaultMemoryBudget,
                            clock: @escaping @Sendable () -> Date = { Date() },
                            reporter: @escaping @Sendable (CacheEvent) -> Void = CacheEvent.reportToHooks) {
        self.init(optionalDirectory: DiskCache.defaultDirectory(name: name), maximumSize: maximumSize,
                  lowWatermark: lowWatermark, maximumEntrySize: maximumEntrySize, memoryBudget: memoryBudget,
                  clock: clock, reporter: reporter)
    }

    init(optionalDirectory: URL?, maximumSize: Int64, lowWatermark: Double, maximumEntrySize: Int64, memoryBudget: Int,
         clock: @escaping @Sendable () -> Date, reporter: @escaping @Sendable (CacheEvent) -> Void) {
        self.directory = optionalDirectory?.standardizedFileURL
        self.directoryPrefix = directory.map { $0.path + "/" }
        self.maximumSize = max(0, maximumSize)
        self.lowWatermark = min(1, max(0, lowWatermark.isFinite ? lowWatermark : DiskCache.defaultLowWatermark))
        self.maximumEntrySize = max(0, min(maximumEntrySize, maximumSize))
        self.memoryBudget = max(0, memoryBudget)
        self.clock = clock
        self.queue = DispatchQueue(label: "chain.cache.disk")
        self.state = Mutex(State(reporter: reporter, memory: MemoryTier(budget: self.memoryBudget)))
    }

    /// Told about damaged entries, disk errors, read-only opening and eviction, on the
    /// store's queue. Default: the global hooks (``CacheEvent/reportToHooks``). Settable at
    /// any time.
    public var reporter: @Sendable (CacheEvent) -> Void {
        get { state.withLock { $0.reporter } }
        set { state.withLock { $0.reporter = newValue } }
    }

    /// Reads the entry stored under `key`; `completion` gets `nil` on a miss (including a
    /// collision, a damaged entry or a disk error). Runs on the store's queue.
    package func entry(for key: CacheKey, completion: @escaping @Sendable (CacheEntry?) -> Void) {
        queue.async { completion(self.readEntry(for: key)) }
    }

    // The callback forms require their completion: with a default, `await store.removeAll()`
    // in top-level code picks the callback form (an `await` with nothing to wait for) and
    // `let n = await store.removeAll()` is `()`. Without one, the async form is the only match.

    /// Stores an entry, replacing any under the same key; `completion` gets whether it was
    /// written (not when read-only, too large, or on a disk error).
    package func store(_ entry: CacheEntry, completion: @escaping @Sendable (Bool) -> Void) {
        enqueueMutation({ self.writeEntry(entry) }, completion: completion)
    }

    /// Removes the entry under `key`; `completion` gets whether one was removed.
    package func remove(_ key: CacheKey, completion: @escaping @Sendable (Bool) -> Void) {
        enqueueMutation({ self.removeEntry(for: key) }, completion: completion)
    }

    /// Removes every entry of this store (not those of its namespaces); `completion` gets
    /// how many were removed.
    public func removeAll(completion: @escaping @Sendable (Int) -> Void) {
        enqueueMutation({ self.removeAllEntries() }, completion: completion)
    }

    /// Removes the entries stored (or last revalidated) before `date`; `completion` gets
    /// how many were removed.
    public func removeEntries(storedBefore date: Date, completion: @escaping @Sendable (Int) -> Void) {
        enqueueMutation({ self.removeEntries(olderThan: date) }, completion: completion)
    }

    /// The bytes the entries take on disk (metadata and bodies).
    public func totalSize(completion: @escaping @Sendable (Int64) -> Void) {
        queue.async { completion(self.currentTotalSize()) }
    }

    /// The number of entries.
    public func entryCount(completion: @escaping @Sendable (Int) -> Void) {
        queue.async { completion(self.currentEntryCount()) }
    }

    /// Releases the directory's lock (another store may then write); the next operation
    /// opens the directory again. `completion` runs once it is released.
    public func close(completion: @escaping @Sendable () -> Void) {
        enqueueMutation({ self.closeNow() }, completion: { _ in completion() })
    }

    /// Queues `apply` on the store's queue, counted in ``queuedMutations`` until it has been
    /// applied; `completion` runs after that, so a read it starts can take the quick path.
    func enqueueMutation<Result: Sendable>(_ apply: @escaping @Sendable () -> Result,
                                           completion: @escaping @Sendable (Result) -> Void) {
        queuedMutations.add(1, ordering: .sequentiallyConsistent)
        queue.async {
            let result = apply()
            self.queuedMutations.subtract(1, ordering: .sequentiallyConsistent)
            completion(result)
        }
    }

    /// Reads the entry under `key` (see ``entry(for:completion:)``).
    package func entry(for key: CacheKey) async -> CacheEntry? {
        await withCheckedContinuation { continuation in entry(for: key) { continuation.resume(returning: $0) } }
    }

    /// Stores an entry and returns whether it was written (see ``store(_:completion:)``).
    @discardableResult
    package func store(_ entry: CacheEntry) async -> Bool {
        await withCheckedContinuation { continuation in store(entry) { continuation.resume(returning: $0) } }
    }

    /// Removes the entry under `key`; returns whether one was removed.
    @discardableResult
    package func remove(_ key: CacheKey) async -> Bool {
        await withCheckedContinuation { continuation in remove(key) { continuation.resume(returning: $0) } }
    }

    /// Removes every entry; returns how many.
    @discardableResult
    public func removeAll() async -> Int {
        await withCheckedContinuation { continuation in removeAll { continuation.resume(returning: $0) } }
    }

    /// Removes the entries stored before `date`; returns how many.
    @discardableResult
    public func removeEntries(storedBefore date: Date) async -> Int {
        await withCheckedContinuation { continuation in
            removeEntries(storedBefore: date) { continuation.resume(returning: $0) }
        }
    }

    /// Releases the directory's lock and returns once it is released (see ``close(completion:)``).
    public func close() async {
        await withCheckedContinuation { continuation in close { continuation.resume() } }
    }

    /// The bytes the entries take on disk.
    public func totalSize() async -> Int64 {
        await withCheckedContinuation { continuation in totalSize { continuation.resume(returning: $0) } }
    }

    /// The number of entries.
    public func entryCount() async -> Int {
        await withCheckedContinuation { continuation in entryCount { continuation.resume(returning: $0) } }
    }
}
