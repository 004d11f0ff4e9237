/// Something the response cache reports to the hooks: a damaged entry it deleted, a disk
/// error it survived, a directory it could only read. The cache never fails a request
/// because of its disk, so these notices are the only trace such problems leave.
public struct CacheNotice: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: String, Sendable, Hashable {
        /// An entry could not be read back intact; it was treated as a miss and deleted.
        case corruptedEntry
        /// A system call on the cache directory failed; the operation behaved as a miss.
        case diskError
        /// Another process holds the directory's lock; this cache only reads.
        case openedReadOnly
        /// Least-recently-used entries were removed to stay under the size limit.
        case evicted
        /// Files left by an interrupted writer were removed when the cache opened.
        case removedLeftovers
    }

    /// What happened.
    public var kind: Kind
    /// A one-line text for logs, prefixed `cache:`.
    public var message: String

    /// Makes a notice.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
