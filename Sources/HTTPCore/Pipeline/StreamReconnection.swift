import Foundation

/// What a hook learns when an event stream connects again (``HTTPHook/willReconnect(_:reconnection:)``).
public struct StreamReconnection: Sendable, Hashable {
    /// 1 for the first reconnection after events arrived, counting up while attempts fail.
    public var attempt: Int
    /// Seconds until the new connection is made.
    public var delay: TimeInterval
    /// The `Last-Event-ID` the new request sends, or `nil` when no event had an id.
    public var lastEventID: String?
    /// Why the connection ended: `nil` when the server closed it cleanly.
    public var error: NetworkError?

    /// Makes a report.
    public init(attempt: Int, delay: TimeInterval, lastEventID: String?, error: NetworkError?) {
        self.attempt = attempt
        self.delay = delay
        self.lastEventID = lastEventID
        self.error = error
    }
}
