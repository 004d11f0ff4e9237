import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few POSIX calls the store needs, with the permission and symlink rules it relies on.
///
/// Plain POSIX rather than `FileManager` because the store must control the mode of every
/// file regardless of the umask (`fchmod` after `open`), refuse to follow symlinks planted
/// in the directory (`O_NOFOLLOW`), and bound every read by a size checked with `fstat`.
enum FileSystem {
    static let directoryMode: mode_t = 0o700
    static let fileMode: mode_t = 0o600

    /// Creates `path` and any missing parents with mode 0700, then makes sure the final
    /// directory is a directory owned by this user with mode 0700.
    static func makePrivateDirectory(_ path: String) throws(FileSystemError) {
        var status = stat()
        if stat(path, &status) != 0 {
            guard errno == ENOENT else { throw FileSystemError(operation: "stat", path: path, code: errno) }
            let parent = (path as NSString).deletingLastPathComponent
            if !parent.isEmpty, parent != path { try makeMissingDirectory(parent) }
            if mkdir(path, directoryMode) != 0, errno != EEXIST {
                throw FileSystemError(operation: "mkdir", path: path, code: errno)
            }
            guard stat(path, &status) == 0 else { throw FileSystemError(operation: "stat", path: path, code: errno) }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw FileSystemError(operation: "open directory", path: path, code: ENOTDIR)
        }
        // A directory someone else owns could be read or swapped by them: never use it.
        guard status.st_uid == geteuid() else {
            throw FileSystemError(operation: "check owner of", path: path, code: EPERM)
        }
        if status.st_mode & 0o777 != directoryMode, chmod(path, directoryMode) != 0 {
            throw FileSystemError(operation: "chmod", path: path, code: errno)
        }
    }

    /// Parents are created 0700 (as the XDG spec asks) but an existing parent is left alone.
    private static func makeMissingDirectory(_ path: String) throws(FileSystemError) {
        var status = stat()
        if stat(path, &status) == 0 { return }
        guard errno == ENOENT else { throw FileSystemError(operation: "stat", path: path, code: errno) }
        let parent = (path as NSString).deletingLastPathComponent
        if !parent.isEmpty, parent != path { try makeMissingDirectory(parent) }
        if mkdir(path, directoryMode) != 0 {
            if errno == EEXIST { return }
            throw FileSystemError(operation: "mkdir", path: path, code: errno)
        }
        // mkdir applies the umask; a parent we create must still be usable and private.
        _ = chmod(path, directoryMode)
    }

    /// Reads a whole regular file of at most `maximumSize` bytes, with the identity of the file
    /// read. The size comes from `fstat` on the open descriptor, so the allocation is bounded
    /// before it happens, and the identity is that of the bytes returned even if the path is
    /// replaced meanwhile. With `touchingAt`, the file's access and modification times are then
    /// set to it through the same descriptor (best effort), and the identity is the one after:
    /// two system calls on the descriptor instead of two path lookups after the read.
    static func readFile(_ path: String, maximumSize: Int64, touchingAt touch: Date? = nil)
        throws(ReadFailure) -> (data: Data, identity: FileIdentity) {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { throw .missing }
            if errno == ELOOP { throw .unacceptable("is a symbolic link") }
            throw .io(FileSystemError(operation: "open", path: path, code: errno))
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .io(FileSystemError(operation: "fstat", path: path, code: errno)) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .unacceptable("is not a regular file") }
        let size = Int64(status.st_size)
        guard size >= 0, size <= maximumSize else { throw .unacceptable("has \(size) bytes, more than the limit of \(maximumSize)") }
        var data = Data(count: Int(size))
        var offset = 0
        let failure: Int32? = data.withUnsafeMutableBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            while offset < buffer.count {
                let n = read(fd, base + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if n == 0 { break }
                offset += n
            }
            return nil
        }
        if let failure { throw .io(FileSystemError(operation: "read", path: path, code: failure)) }
        // A file that shrank while being read (it cannot with rename-based writes, but a
        // foreign process could truncate it) comes back short; the caller's length check sees it.
        if offset < data.count { data.removeSubrange(offset..<data.count) }
        if let touch {
            let time = timespec(date: touch)
            let changed = withUnsafeTemporaryAllocation(of: timespec.self, capacity: 2) { times -> Bool in
                times[0] = time
                times[1] = time
                return futimens(fd, times.baseAddress) == 0
            }
            var touched = stat()
            if changed, fstat(fd, &touched) == 0 { status = touched }
        }
        return (data, FileIdentity(status))
    }

    /// Creates a new file (it must not exist) with mode 0600 whatever the umask, writes
    /// `data`, sets its modification time and closes it. On failure the file is removed.
    static func writeNewFile(_ path: String, data: Data, modificationDate: Date) throws(FileSystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, fileMode)
        guard fd >= 0 else { throw FileSystemError(operation: "create", path: path, code: errno) }
        var failure: FileSystemError?
        if fchmod(fd, fileMode) != 0 {
            failure = FileSystemError(operation: "fchmod", path: path, code: errno)
        }
        if failure == nil {
            let code: Int32? = data.withUnsafeBytes { buffer -> Int32? in
                guard let base = buffer.baseAddress else { return nil }
                var offset = 0
                while offset < buffer.count {
                    let n = write(fd, base + offset, buffer.count - offset)
                    if n < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    offset += n
                }
                return nil
            }
            if let code { failure = FileSystemError(operation: "write", path: path, code: code) }
        }
        if failure == nil {
            var times = [timespec(date: modificationDate), timespec(date: modificationDate)]
            if futimens(fd, &times) != 0 { failure = FileSystemError(operation: "futimens", path: path, code: errno) }
        }
        if close(fd) != 0, failure == nil {
            failure = FileSystemError(operation: "close", path: path, code: errno)
        }
        if let failure {
            unlink(path)
            throw failure
        }
    }

    /// Atomically replaces `destination` with `source` (both in one directory).
    static func move(_ source: String, to destination: String) throws(FileSystemError) {
        guard rename(source, destination) == 0 else {
            throw FileSystemError(operation: "rename", path: source, code: errno)
        }
    }

    /// Removes a file; a file that is already gone is not an error.
    @discardableResult
    static func remove(_ path: String) -> Bool {
        unlink(path) == 0 || errno == ENOENT
    }

    /// Sets access and modification time (used as the least-recently-used clock).
    static func setModificationDate(_ path: String, _ date: Date) {
        var times = [timespec(date: date), timespec(date: date)]
        // Best effort: losing one access time only makes eviction slightly less accurate.
        _ = utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    /// The size and modification time of a regular file, without following symlinks;
    /// `nil` for anything else or a missing file.
    static func regularFileInfo(_ path: String) -> (size: Int64, modified: Date)? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let modified = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9)
        return (Int64(status.st_size), modified)
    }

    /// The names in a directory (without `.` and `..`).
    static func contents(of path: String) throws(FileSystemError) -> [String] {
        guard let directory = opendir(path) else { throw FileSystemError(operation: "opendir", path: path, code: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}

extension timespec {
    init(date: Date) {
        let seconds = date.timeIntervalSince1970
        let whole = seconds.rounded(.down)
        self.init(tv_sec: Int(whole), tv_nsec: Int(((seconds - whole) * 1e9).rounded(.down)))
    }
}
