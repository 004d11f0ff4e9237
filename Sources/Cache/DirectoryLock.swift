import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` on a store's lock file, held for as long as this object lives.
///
/// `flock` locks belong to the open file description, so a second `open` of the same file —
/// in another process or in this one — cannot take the lock while this one is held, and the
/// kernel drops it when the process dies (even by SIGKILL), so a crashed writer never leaves
/// a stale lock behind.
final class DirectoryLock: Sendable {
    /// Why the lock could not be taken.
    enum Failure: Error {
        /// Another open file description holds it.
        case heldElsewhere
        /// The lock file could not be opened.
        case io(FileSystemError)
    }

    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock, trying again for up to `patience` seconds while it is held elsewhere.
    ///
    /// Waiting a little matters even without a second store: while any thread of this
    /// process spawns a child, the child shares the descriptor table until it calls `exec`,
    /// so a lock just released (or about to be taken) can look held for a moment. Runs on
    /// the store's queue only, never on a caller's thread.
    static func acquire(path: String, patience: TimeInterval) -> Result<DirectoryLock, Failure> {
        let deadline = Date().addingTimeInterval(patience)
        var pause: useconds_t = 1_000
        while true {
            let result = acquire(path: path)
            guard case .failure(.heldElsewhere) = result, Date() < deadline else { return result }
            usleep(pause)
            pause = min(pause * 2, 20_000)
        }
    }

    /// Takes the lock without waiting.
    static func acquire(path: String) -> Result<DirectoryLock, Failure> {
        let fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, FileSystem.fileMode)
        guard fd >= 0 else { return .failure(.io(FileSystemError(operation: "open lock file", path: path, code: errno))) }
        _ = fchmod(fd, FileSystem.fileMode)
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { return .failure(.heldElsewhere) }
            return .failure(.io(FileSystemError(operation: "flock", path: path, code: code)))
        }
        return .success(DirectoryLock(descriptor: fd))
    }

    deinit {
        // Closing the descriptor releases the flock; nothing else to undo.
        close(descriptor)
    }
}
