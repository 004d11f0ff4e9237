/// A progress report for one direction of a transfer.
///
/// Reports are throttled (at most one per direction every 50 ms, the first 50 ms after the
/// transfer started, plus the last one — so a transfer shorter than that reports once),
/// monotonic (`completedBytes` never goes down), and the last download report of a
/// successful transfer has `completedBytes == totalBytes ==` the bytes received.
public struct TransferProgress: Sendable, Hashable {
    /// Which way the bytes go.
    public enum Direction: String, Sendable, Hashable {
        /// Request body bytes sent.
        case upload
        /// Response body bytes received (as sent on the wire, before decompression).
        case download
    }

    /// Which way the bytes go.
    public var direction: Direction
    /// Bytes transferred so far.
    public var completedBytes: Int64
    /// Bytes expected, or `nil` when the size is not known (chunked or no `Content-Length`).
    public var totalBytes: Int64?

    /// Makes a report.
    public init(direction: Direction, completedBytes: Int64, totalBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes` in 0...1, or `nil` when the total is not known.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}
