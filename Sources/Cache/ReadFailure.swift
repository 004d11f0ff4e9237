/// Why a file could not be read.
enum ReadFailure: Error, Sendable {
    /// The file does not exist (a miss, not a problem).
    case missing
    /// The file is larger than the caller allows, or not a regular file: treated as corrupt
    /// so that a damaged size never turns into a huge allocation.
    case unacceptable(String)
    /// Any other system error (permissions, I/O).
    case io(FileSystemError)
}
