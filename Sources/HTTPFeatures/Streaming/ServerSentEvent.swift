import Foundation

/// One server-sent event, as the HTML specification's event-stream interpretation dispatches it.
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The last event ID in effect when the event was dispatched (the specification's
    /// `lastEventId`: it persists from earlier events); `nil` when none was set, or an empty
    /// `id:` field reset it.
    public var id: String?
    /// The event type: the block's `event` field, `"message"` when it had none (or an empty one).
    public var event: String
    /// The `data` lines, joined with `"\n"`.
    public var data: String
    /// Milliseconds from a valid `retry` field in this event's block, else `nil`. The stream's
    /// reconnection time follows it either way.
    public var retry: Int?

    /// Makes an event; the defaults are no id, type `"message"` and no retry.
    public init(id: String? = nil, event: String = "message", data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }

    public var description: String {
        var parts = ["event: \(event)"]
        if let id { parts.append("id: \(id)") }
        if let retry { parts.append("retry: \(retry)") }
        parts.append("data: \(data.debugDescription)")
        return "ServerSentEvent(\(parts.joined(separator: ", ")))"
    }
}
