import Foundation
import HTTPCore

/// The requests a ``TerminalProgressHook`` is showing, and the pure function that draws them:
/// the same board, width and time always give the same lines, so the drawing is tested
/// without a terminal (and can be reused for a display of your own).
///
/// There is one line per request in flight, in the order they started, keyed by
/// ``HookContext/id``; ending one request removes exactly its line.
public struct ProgressBoard: Sendable, Hashable {
    /// One request in flight.
    public struct Entry: Sendable, Hashable {
        /// The ``HookContext/id`` of the request.
        public var id: UInt64
        /// What the line calls the request, e.g. `GET example.com/file.zip`.
        public var label: String
        /// When the request started, in seconds on the clock passed to ``ProgressBoard/render(width:now:maximumLines:)``.
        public var startedAt: TimeInterval
        /// The latest upload report, or `nil` (default) before the first.
        public var upload: TransferProgress?
        /// The latest download report, or `nil` (default) before the first.
        public var download: TransferProgress?

        /// Makes an entry with no progress reported yet (by default).
        public init(id: UInt64, label: String, startedAt: TimeInterval, upload: TransferProgress? = nil,
                    download: TransferProgress? = nil) {
            self.id = id
            self.label = label
            self.startedAt = startedAt
            self.upload = upload
            self.download = download
        }

        /// The progress the line shows: the upload while it is under way, then the download.
        public var current: TransferProgress? {
            if let upload, download.map({ $0.completedBytes == 0 }) ?? true,
               upload.totalBytes.map({ upload.completedBytes < $0 }) ?? true {
                return upload
            }
            return download ?? upload
        }
    }

    /// The requests in flight, oldest first. Empty by default.
    public private(set) var entries: [Entry]

    /// Makes a board; empty by default.
    public init(entries: [Entry] = []) {
        self.entries = entries
    }

    /// Adds a request (or restarts its line, if the id is already on the board).
    public mutating func begin(id: UInt64, label: String, at time: TimeInterval) {
        entries.removeAll { $0.id == id }
        entries.append(Entry(id: id, label: label, startedAt: time))
    }

    /// Records a progress report; reports for requests not on the board are ignored.
    public mutating func update(id: UInt64, progress: TransferProgress) {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return }
        switch progress.direction {
        case .upload: entries[index].upload = progress
        case .download: entries[index].download = progress
        }
    }

    /// Removes the request's line (and no other) and returns its entry, or `nil` if it was not on the board.
    @discardableResult
    public mutating func end(id: UInt64) -> Entry? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        return entries.remove(at: index)
    }

    /// The lines to show at time `now` on a terminal `width` columns wide: one per request,
    /// oldest first, each shorter than `width` (a line in the last column would wrap). With
    /// more than `maximumLines` requests (default 8, at least 1), the last line says how many more there are.
    public func render(width: Int, now: TimeInterval, maximumLines: Int = 8) -> [String] {
        let limit = max(1, maximumLines)
        let columns = max(20, width) - 1
        guard entries.count > limit else {
            return entries.map { ProgressBoard.line(for: $0, columns: columns, now: now) }
        }
        let shown = entries.prefix(limit - 1).map { ProgressBoard.line(for: $0, columns: columns, now: now) }
        let more = entries.count - (limit - 1)
        return shown + [ProgressBoard.fit("  … and \(more) more requests", columns)]
    }

    /// A finished request's last line, printed above the board and left there: `✓` or `✗`,
    /// the label, then the status, size, time and source — or the error.
    /// `downloadedBytes` is the last download report's count: the size of a body that went
    /// to a file, where `response.body` is empty.
    static func summary(label: String, response: HTTPResponse?, error: NetworkError?, elapsed: TimeInterval,
                        width: Int, downloadedBytes: Int64? = nil) -> String {
        let columns = max(20, width) - 1
        var text: String
        if let error {
            text = "✗ \(label)  \(ErrorReporterHook.message(for: error))"
        } else if let response {
            let size = response.fileURL == nil ? Int64(response.body.count) : (downloadedBytes ?? 0)
            text = "✓ \(label)  \(response.statusCode)  \(HookFormat.bytes(size))  \(HookFormat.duration(elapsed))"
            if response.source != .network { text += "  (\(response.source.rawValue))" }
        } else {
            text = "✓ \(label)"
        }
        return fit(text, columns)
    }

    private static let spinnerFrames: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    private static func line(for entry: Entry, columns: Int, now: TimeInterval) -> String {
        let elapsed = max(0, now - entry.startedAt)
        // The frame follows the clock, not the number of redraws, so the spinner turns at the
        // same speed however often progress arrives and stays a pure function of `now`.
        let spinner = spinnerFrames[Int(elapsed * 10) % spinnerFrames.count]
        let label = HookFormat.truncateMiddle(entry.label, to: max(12, min(entry.label.count, columns * 2 / 5)))
        guard let progress = entry.current else {
            return fit("\(spinner) \(label)  \(HookFormat.clock(elapsed))", columns)
        }
        let sent = progress.direction == .upload ? " sent" : ""
        let speed = elapsed >= 0.2 && progress.completedBytes > 0 ? Double(progress.completedBytes) / elapsed : nil
        let speedText = speed.map { "  \(HookFormat.bytes(Int64($0)))/s" } ?? ""
        guard let fraction = progress.fractionCompleted, let total = progress.totalBytes else {
            return fit("\(spinner) \(label)  \(HookFormat.bytes(progress.completedBytes))\(sent)\(speedText)", columns)
        }
        let whole = String(Int(fraction * 100))
        let percent = String(repeating: " ", count: max(0, 3 - whole.count)) + whole + "%"
        let timeLeft = speed.map { " \(HookFormat.clock(Double(max(0, total - progress.completedBytes)) / $0)) left" } ?? ""
        let stats = "\(percent)\(sent)\(speedText)\(timeLeft)"
        let barWidth = columns - (2 + label.count + 2 + 2 + stats.count)
        guard barWidth >= 6 else { return fit("\(spinner) \(label)  \(stats)", columns) }
        return "\(spinner) \(label) [\(bar(fraction, width: barWidth))] \(stats)"
    }

    /// `=====>    `: filled in proportion, with a head while incomplete.
    private static func bar(_ fraction: Double, width: Int) -> String {
        let filled = min(width, Int(fraction * Double(width)))
        guard filled < width else { return String(repeating: "=", count: width) }
        let done = filled > 0 ? String(repeating: "=", count: filled - 1) + ">" : ""
        return done + String(repeating: " ", count: width - filled)
    }

    private static func fit(_ text: String, _ columns: Int) -> String {
        text.count > columns ? String(text.prefix(max(0, columns - 1))) + "…" : text
    }
}
