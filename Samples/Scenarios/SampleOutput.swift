import Foundation

/// Where a sample prints what it does and what came back.
///
/// The programs print to standard output; the tests pass an output that collects the lines,
/// so they can check that each sample still says what it should.
public struct SampleOutput: Sendable {
    private let writeLine: @Sendable (String) -> Void

    /// An output that hands every line (without its newline) to `writeLine`.
    public init(_ writeLine: @escaping @Sendable (String) -> Void) {
        self.writeLine = writeLine
    }

    /// Standard output, one `write` per line so lines from different threads never mix.
    public static let standardOutput = SampleOutput { line in
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Prints one line.
    public func say(_ line: String) {
        writeLine(line)
    }

    /// An output for hooks (`LoggerHook`): the same lines, each marked `[log]` so a reader
    /// can tell what the library logged from what the sample printed.
    public var log: HookOutput {
        HookOutput { text in
            for line in text.split(separator: "\n") {
                self.writeLine("    [log] \(line)")
            }
        }
    }
}
