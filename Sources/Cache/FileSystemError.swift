import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call on a path, with its `errno`.
struct FileSystemError: Error, Sendable, CustomStringConvertible {
    var operation: String
    var path: String
    var code: Int32

    var description: String { "\(operation) \(path): \(String(cString: strerror(code)))" }
}
