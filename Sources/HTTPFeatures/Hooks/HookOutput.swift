#if canImport(Glibc)
import HTTPCore
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a shipped hook writes its text: standard error by default, or any closure — a
/// file, a logging system, or a buffer in a test.
///
/// It is a `TextOutputStream`, so `print("…", to: &output)` works too. Text is passed on as
/// given (the hooks add their own newlines), one call per finished block, so lines from
/// concurrent requests never interleave within a block.
public struct HookOutput: Sendable, TextOutputStream {
    private let sink: @Sendable (String) -> Void

    /// Makes an output that hands every piece of text to `write`. `write` may be called from
    /// any callback queue, so it must be thread-safe, and must not call back into the hook.
    public init(_ write: @escaping @Sendable (String) -> Void) {
        sink = write
    }

    /// Writes `text` as it is.
    public func write(_ text: String) {
        sink(text)
    }

    /// The process's standard error (file descriptor 2), unbuffered: the default of every shipped hook.
    public static let standardError = HookOutput { writeAll(text: $0, to: STDERR_FILENO) }

    /// The process's standard output (file descriptor 1), unbuffered.
    public static let standardOutput = HookOutput { writeAll(text: $0, to: STDOUT_FILENO) }

    /// Drops everything.
    public static let discard = HookOutput { _ in }
}

/// Writes with `write(2)` directly rather than through `FileHandle`, whose errors on a closed
/// descriptor are not reportable without `throws`; a hook must not throw, so a failed write
/// (a closed pipe, a full disk) is dropped.
private func writeAll(text: String, to descriptor: Int32) {
    var text = text
    text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count, let base = buffer.baseAddress {
            let written = write(descriptor, base + offset, buffer.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
