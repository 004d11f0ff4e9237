/// Something the response cache wants a person (or a log) to know about. The cache never
/// fails a request because of its disk: these events are the only trace such problems leave.
///
/// The one vocabulary of cache reports: the cache module reports in it, a store's reporter
/// receives it, and so do the hooks (``HTTPHook/cacheDidReport(_:)``). Delivered on the
/// cache's serial queue, after the cache's lock is released, so a receiver may call back
/// into the cache.
public enum CacheEvent: Sendable, Hashable, CustomStringConvertible {
    /// An entry could not be read back intact (truncated, damaged bytes, an impossible
    /// length). It was treated as a miss and deleted (unless the store is read-only).
    /// `file` is the entry's metadata file name.
    case corruptedEntry(file: String, reason: String)
    /// A system call on the cache directory failed; the operation behaved as a miss (or the
    /// write was dropped). `operation` says what was being done.
    case diskError(operation: String, path: String, message: String)
    /// Another process (or another store in this one) holds the directory's lock, so this
    /// store only reads until it can take the lock.
    case openedReadOnly(directory: String)
    /// Least-recently-used entries were removed to get back under the size limit.
    case evicted(entries: Int, bytes: Int64)
    /// Temporary files and orphaned bodies left by an interrupted writer were removed at open.
    case removedLeftovers(files: Int)

    /// A one-line text for logs, prefixed `cache:`.
    public var description: String {
        switch self {
        case .corruptedEntry(let file, let reason): "cache: corrupted entry \(file): \(reason)"
        case .diskError(let operation, let path, let message): "cache: \(operation) failed for \(path): \(message)"
        case .openedReadOnly(let directory): "cache: \(directory) is locked by another process; reading only"
        case .evicted(let entries, let bytes): "cache: evicted \(entries) entries (\(bytes) bytes)"
        case .removedLeftovers(let files): "cache: removed \(files) leftover files"
        }
    }

    /// The default reporter of every cache store: tells the globally installed hooks
    /// (``HTTPHook/cacheDidReport(_:)``) in the order they were added, so a damaged entry is
    /// never deleted silently.
    public static let reportToHooks: @Sendable (CacheEvent) -> Void = { event in
        for hook in Hooks.shared.all { hook.cacheDidReport(event) }
    }
}
