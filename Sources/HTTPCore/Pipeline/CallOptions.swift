import Dispatch

/// Per-call settings of the pipeline beyond the request itself.
public struct CallOptions: Sendable {
    /// Where the plan, the hooks and the deliveries run. Default `nil`: the client's
    /// ``HTTPClient/Configuration/callbackQueue``. May be concurrent: one call's blocks still
    /// run one at a time, in order (see ``HTTPHook``).
    public var queue: DispatchQueue?
    /// Upload and download progress. Default `nil`.
    public var progress: (@Sendable (TransferProgress) -> Void)?
    /// The cache step with its policy, or `nil` (default) to go straight to the network.
    public var cache: (any CacheStep)?
    /// The cookie jar: asked for the `Cookie` field of every request sent (each hop and retry),
    /// given the `Set-Cookie` fields of every response. Default `nil`: no cookies sent or
    /// stored (the front ends set `CookieJar.shared` unless told otherwise).
    public var cookies: (any CookieStorage)?
    /// Hooks for this call only, called after the global ones. Default none.
    public var hooks: [any HTTPHook]
    /// Whether the global ``Hooks/shared`` hooks see this call. Default `true`.
    public var usesGlobalHooks: Bool
    /// Interceptors for this call only, run after the client's. Default none.
    public var interceptors: [any RequestInterceptor]
    /// Who is calling, for hooks and logs. Default `"HTTPCore"`.
    public var origin: String
    /// A canned answer used instead of the network. Default `nil`.
    public var stub: Stub?
    /// What answers the transfer step in place of the network, in order, each able to hand the
    /// request on to the next and the last to the transport (a stub table, a cassette). Default
    /// none. A ``stub`` wins over them.
    public var responders: [any TransferResponder]
    /// Whether an identical `GET` or `HEAD` already in flight for the same callback queue is
    /// shared instead of sending a second transfer. Default `true`.
    public var coalescesIdenticalRequests: Bool

    /// Makes options; every argument has the default stated on its property.
    public init(queue: DispatchQueue? = nil, progress: (@Sendable (TransferProgress) -> Void)? = nil,
                cache: (any CacheStep)? = nil, cookies: (any CookieStorage)? = nil, hooks: [any HTTPHook] = [], usesGlobalHooks: Bool = true,
                interceptors: [any RequestInterceptor] = [], origin: String = "HTTPCore", stub: Stub? = nil,
                responders: [any TransferResponder] = [], coalescesIdenticalRequests: Bool = true) {
        self.queue = queue
        self.progress = progress
        self.cache = cache
        self.cookies = cookies
        self.hooks = hooks
        self.usesGlobalHooks = usesGlobalHooks
        self.interceptors = interceptors
        self.origin = origin
        self.stub = stub
        self.responders = responders
        self.coalescesIdenticalRequests = coalescesIdenticalRequests
    }
}
