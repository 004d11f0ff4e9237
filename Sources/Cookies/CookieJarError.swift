/// Why a file-backed ``CookieJar`` could not load or save its file. The message names the
/// file and the cause; it never contains a cookie's value.
public struct CookieJarError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The file exists but could not be read (permissions, not a regular file, too large).
        case unreadable
        /// The file is not a cookie file: not JSON, or JSON of another shape.
        case damaged
        /// The file is a cookie file of a format version this jar does not know.
        case unsupportedVersion
        /// The file could not be written (the directory is missing, a full disk, permissions).
        case writeFailed
    }

    /// What went wrong.
    public let kind: Kind
    /// What happened, for people: the path and the cause.
    public let message: String

    /// An error of `kind` with `message`.
    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The kind and the message.
    public var description: String { "CookieJarError.\(kind): \(message)" }
}
