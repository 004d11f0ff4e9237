import Foundation

/// Whether and how an event stream connects again after its connection ended
/// (``Request/events(reconnect:bufferSize:)``), as the HTML specification's `EventSource` does.
///
/// After a dropped connection, or one the server ended with a status other than 204, the stream
/// waits the server's `retry` time (else ``initialDelay``), doubled after each attempt that
/// brought no event, up to ``maximumDelay`` (which also caps the server's `retry`), and sends the request again with `Last-Event-ID`
/// set to the last event id it saw. It stops on HTTP 204 No Content, on a refused status or
/// content type, on a decoding or size failure, and on a cancel.
public struct EventReconnection: Sendable, Hashable {
    /// Whether the stream reconnects at all.
    public var isEnabled: Bool
    /// Seconds to wait before the first reconnection when the server sent no `retry`. Default 3.
    public var initialDelay: TimeInterval
    /// The longest wait between attempts, backoff included. Default 30 s.
    public var maximumDelay: TimeInterval
    /// Attempts in a row that bring no event before the stream gives up (with the last error,
    /// or the end of the stream after a clean close); `nil`, the default, for no limit.
    public var maximumAttempts: Int?

    /// Reconnects after the server's `retry` time, or 3 s, with backoff up to 30 s, without limit.
    public static let automatic = EventReconnection()
    /// Never reconnects: the stream ends with its first connection.
    public static let never = EventReconnection(isEnabled: false)

    /// Makes a policy; every argument has the default stated on its property.
    public init(isEnabled: Bool = true, initialDelay: TimeInterval = 3, maximumDelay: TimeInterval = 30,
                maximumAttempts: Int? = nil) {
        self.isEnabled = isEnabled
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// The wait before attempt `attempt` (1 for the first after events arrived), given the
    /// server's `retry` in milliseconds; never more than ``maximumDelay`` (a server's `retry`
    /// included), never less than ``shortestDelay``. A negative or NaN setting counts as 0, an
    /// infinite one as a day — never a crash.
    public func delay(attempt: Int, serverRetry: Int?) -> TimeInterval {
        let cap = EventReconnection.sanitized(maximumDelay, fallback: 30)
        let base = serverRetry.map { TimeInterval($0) / 1000 } ?? EventReconnection.sanitized(initialDelay, fallback: 3)
        let doublings = attempt <= 1 ? 0 : Double(min(attempt - 1, 30))
        // At least 10 ms: a server's `retry: 0` must not make a stream reconnect in a busy loop.
        return max(min(max(base, 0) * pow(2, doublings), cap), EventReconnection.shortestDelay)
    }

    /// The shortest wait between connections, whatever the settings and the server say: 10 ms.
    public static let shortestDelay: TimeInterval = 0.01

    /// The wait in nanoseconds, for `Task.sleep`.
    static func nanoseconds(_ delay: TimeInterval) -> UInt64 {
        guard !delay.isNaN else { return 0 }
        return UInt64(min(max(delay, 0), 24 * 3600) * 1_000_000_000)
    }

    /// Whether attempt `attempt` (counting fruitless attempts in a row) may be made.
    public func allows(attempt: Int) -> Bool {
        guard isEnabled else { return false }
        guard let maximumAttempts else { return true }
        return attempt <= maximumAttempts
    }

    private static func sanitized(_ value: TimeInterval, fallback: TimeInterval) -> TimeInterval {
        guard value.isFinite else { return value == .infinity ? 24 * 3600 : fallback }
        return min(max(value, 0), 24 * 3600)
    }
}
