/// One server-sent event, as the WHATWG HTML "interpreting an event stream" rules dispatch it.
public struct ServerSentEvent: Sendable, Hashable, CustomStringConvertible {
    /// The last event ID in effect when the event was dispatched (the spec's `lastEventId`):
    /// set by this block or an earlier one. `nil` (the default) when none was ever set or an
    /// empty `id` field reset it.
    public var id: String?
    /// The event type: the block's last `event` field; `"message"` (the default) when the block
    /// had none or an empty one.
    public var event: String
    /// The block's `data` values joined with `"\n"`, without the final newline the spec removes.
    public var data: String
    /// The reconnection time in milliseconds from a valid `retry` field in this event's block;
    /// `nil` (the default) when the block had none.
    public var retry: Int?

    /// Makes an event; `id` defaults to `nil`, `event` to `"message"`, `retry` to `nil`.
    public init(id: String? = nil, event: String = "message", data: String, retry: Int? = nil) {
        self.id = id
        self.event = event
        self.data = data
        self.retry = retry
    }

    public var description: String {
        var text = "ServerSentEvent(event: \(event)"
        if let id { text += ", id: \(id.debugDescription)" }
        if let retry { text += ", retry: \(retry) ms" }
        return text + ", data: \(data.debugDescription))"
    }
}
