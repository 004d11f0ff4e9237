/// The one place where every request of both front ends reports: the counterpart of the
/// MBProgressHUD and alert helpers of iOS apps, of loggers and of activity indicators.
///
/// Every method has a default implementation that does nothing, so a hook implements only
/// what it needs. Methods run on the request's callback queue — never on the engine's loop
/// thread — so a slow hook delays other callbacks on that queue but never a transfer. They
/// must not throw and should be fast.
///
/// Events of one call come in order, each returning before the next starts, on every kind of
/// queue (a concurrent one included): ``willSend(_:)``, its ``didProgress(_:progress:)``
/// reports and ``didRedirect(_:hop:)`` for each redirect hop followed, then the end event,
/// then the call's completion.
///
/// Events are balanced: every ``willSend(_:)`` is followed by exactly one ``didFinish(_:response:)``
/// or ``didFail(_:error:)`` for the same ``HookContext/id``, also on cancel and timeout. A
/// `.fileFirst` cache hit is two deliveries, so it reports two such pairs (the first with a
/// response whose `source` is `.cache`).
public protocol HTTPHook: Sendable {
    /// A request is about to be sent (after interceptors adapted it) or looked up in the cache.
    func willSend(_ context: HookContext)
    /// Upload or download progress of the request's transfer (throttled, monotonic within a
    /// transfer: a redirect hop or a retry is a new transfer and counts from 0 again).
    func didProgress(_ context: HookContext, progress: TransferProgress)
    /// A redirect is followed: `hop` holds the redirect response, the request of the next hop
    /// as it will be adapted and sent, and the hops before it. Between ``willSend(_:)`` and the
    /// end event, with the same context.
    func didRedirect(_ context: HookContext, hop: RedirectHop)
    /// The request succeeded: the response passed validation and decoding.
    /// `response.source` says whether it came from the network or the cache; `response.timings`
    /// holds libcurl's timings.
    func didFinish(_ context: HookContext, response: HTTPResponse)
    /// The request failed, for any reason: transport, status, decoding, business error, cancel.
    func didFail(_ context: HookContext, error: NetworkError)
    /// The response cache dealt with a problem (a damaged entry deleted, a disk error). Runs on
    /// the cache's own queue, not a request's callback queue.
    func cacheDidReport(_ event: CacheEvent)
    /// An event stream lost its connection (or the server ended it) and will connect again
    /// after ``StreamReconnection/delay``: a new call, with its own ``willSend(_:)`` and end
    /// event, follows. `context` names the stream's request; its `id` is this event's own.
    func willReconnect(_ context: HookContext, reconnection: StreamReconnection)
}

extension HTTPHook {
    /// Does nothing.
    public func willSend(_ context: HookContext) {}
    /// Does nothing.
    public func didProgress(_ context: HookContext, progress: TransferProgress) {}
    /// Does nothing.
    public func didRedirect(_ context: HookContext, hop: RedirectHop) {}
    /// Does nothing.
    public func didFinish(_ context: HookContext, response: HTTPResponse) {}
    /// Does nothing.
    public func didFail(_ context: HookContext, error: NetworkError) {}
    /// Does nothing.
    public func cacheDidReport(_ event: CacheEvent) {}
    /// Does nothing.
    public func willReconnect(_ context: HookContext, reconnection: StreamReconnection) {}
}

/// What a hook learns about the request an event belongs to.
public struct HookContext: Sendable, Hashable {
    /// Identifies one delivery of one call; the same for its `willSend` and its end event.
    public var id: UInt64
    /// The request as sent (after adaptation).
    public var request: HTTPRequest
    /// Which front end made the call (`"Chain"`, `"AFStyle"`, `"HTTPCore"`).
    public var origin: String

    /// Makes a context.
    public init(id: UInt64, request: HTTPRequest, origin: String) {
        self.id = id
        self.request = request
        self.origin = origin
    }
}
