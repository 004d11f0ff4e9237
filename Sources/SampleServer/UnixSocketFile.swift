import Glibc

/// The socket file a Unix-domain listener is bound to: its path, and which file it is
/// (device and inode), so `stop()` removes exactly the file this server created — not one a
/// later server has since bound at the same path.
struct UnixSocketFile: Sendable {
    let path: String
    private let device: UInt64
    private let inode: UInt64

    /// The longest path `sockaddr_un` holds (107 bytes on Linux, leaving room for the NUL).
    static let maxPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// Records the file now at `path`; nil if there is none or it is not a socket.
    init?(boundAt path: String) {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFSOCK else { return nil }
        self.path = path
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }

    /// Removes the socket file if it is still the one recorded.
    func remove() {
        var info = stat()
        guard lstat(path, &info) == 0, UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode else { return }
        _ = unlink(path)
    }

    /// `path` as a socket address; nil if it is empty, too long or contains a NUL byte.
    static func address(for path: String) -> sockaddr_un? {
        let bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= maxPathLength, !bytes.contains(0) else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        // The rest of `sun_path` is already zero, which terminates the path.
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: bytes) }
        return address
    }

    /// Makes room for a new listener at `path`: nothing there is fine; a socket file nobody
    /// listens on (a server that died without cleaning up) is removed. A socket someone still
    /// accepts on is left alone (`EADDRINUSE`), and so is any other kind of file (`EEXIST`):
    /// replacing either would break or destroy what is there. Returns the `errno` that stops
    /// the bind, or nil when the path is free.
    static func clearStale(at path: String, address: sockaddr_un) -> Int32? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? nil : errno }
        guard info.st_mode & S_IFMT == S_IFSOCK else { return EEXIST }
        // Non-blocking: a live listener with a full backlog answers EAGAIN instead of making
        // this wait, and counts as live.
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                           | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard probe >= 0 else { return errno }
        defer { close(probe) }
        var target = address
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        if connected == 0 || errno == EAGAIN { return EADDRINUSE }
        guard errno == ECONNREFUSED else { return errno }
        guard unlink(path) == 0 || errno == ENOENT else { return errno }
        return nil
    }
}
