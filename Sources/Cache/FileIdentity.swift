#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which file a path named when it was looked at, and in what state: device, inode, size and
/// the modification and change times, to the nanosecond.
///
/// The memory tier trusts a held entry only while both its files still have the identity they
/// had when they were read or written. Every write renames a new file into place (a new
/// inode), a removal makes the path missing, and any change in place — damage included — moves
/// the change time, which no process can set back; so an equal identity means the same bytes.
struct FileIdentity: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int
    let changedSeconds: Int
    let changedNanoseconds: Int

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modifiedSeconds = Int(status.st_mtim.tv_sec)
        modifiedNanoseconds = Int(status.st_mtim.tv_nsec)
        changedSeconds = Int(status.st_ctim.tv_sec)
        changedNanoseconds = Int(status.st_ctim.tv_nsec)
    }

    /// The identity of the regular file at `path`, without following a symlink; `nil` for
    /// anything else or a missing file.
    static func of(_ path: String) -> FileIdentity? {
        var status = stat()
        guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileIdentity(status)
    }
}
