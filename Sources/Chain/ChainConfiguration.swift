import Dispatch
import Foundation

/// The settings every ``Request`` starts from: base URL, common headers, envelope, error-body
/// type, decoder (FastJSON by default), callback queue, cache, client, stubbing.
///
/// A request uses ``Request/defaults`` (read when it starts) unless it was made from a
/// configuration of its own (`url(_:)`, ``Request/configuration(_:)``). A request's own
/// settings always win over the configuration's.
///
/// ```swift
/// Request.updateDefaults { defaults in
///     defaults.baseURL = URL(string: "https://api.example.com/v1/")
///     defaults.headers["Authorization"] = "Bearer \(token)"
///     defaults.envelope = .errcode
/// }
/// Request.url("user/101").response(User.self) { result in … }
/// ```
public struct ChainConfiguration: Sendable {
    /// Resolves relative request URLs (`"user/101"`). Default `nil`: relative URLs fail with
    /// ``NetworkError/Kind/invalidURL``. Resolved by the rule every front end shares
    /// (``HTTPCore/URLResolution``): the base path is a directory (a missing trailing `/` is
    /// added), so `https://h/api` + `user/1` is `https://h/api/user/1`; a path starting with
    /// `/` replaces the base path (`https://h/user/1`); the empty string is the base itself.
    public var baseURL: URL?
    /// Headers sent with every request; a request's own headers of the same name win.
    /// Default none.
    public var headers: HTTPHeaders
    /// The envelope every request unwraps unless it names its own or none. Default `nil`.
    public var envelope: Envelope?
    /// The error-body type every request decodes on a rejected status unless it names its
    /// own. Default `nil` (a generic status error with the raw body).
    public var errorBody: ErrorBodyDecoder?
    /// The decoder for models, envelopes, error bodies and `responseJSON`. Default `.fast()`:
    /// FastJSON's `FastJSONDecoder()`. Set `.foundation(JSONDecoder())` to switch every
    /// request back to Foundation's `JSONDecoder` and `JSONSerialization`; a request's
    /// ``Request/decoding(_:)`` (or `decoder(_:)`) wins.
    public var decoding: JSONDecoding
    /// The encoder for `Encodable` parameters. Default: a `JSONEncoder` with sorted keys
    /// (equal parameters give equal bytes and equal cache keys).
    public var encoder: JSONEncoder
    /// Where completions, progress closures and hooks run. Default
    /// ``defaultCallbackQueue``, a private serial queue — not the main queue, which nothing
    /// drains in a command-line program unless it calls `dispatchMain()` or runs a run loop.
    /// Set `DispatchQueue.main` in an app whose main queue runs.
    public var callbackQueue: DispatchQueue
    /// The cache policy of requests that do not set one. Default `nil`: the cache is not
    /// involved at all (nothing is read or stored); `.networkOnly` reads nothing but stores
    /// successes for later `.fileFirst`/`.cacheOnly` calls.
    public var cachePolicy: CachePolicy?
    /// The store cache policies use. Default ``ResponseCache/shared`` (`~/.cache/chain`),
    /// opened only when a request uses a policy.
    public var cache: ResponseCache
    /// Request headers (any case) whose values become part of every cache key, beside the
    /// credential-like ones that always are (`Cookie` and any name containing `auth`, `token`,
    /// `key` or `session`) — for answers that depend on a header the server does not name in
    /// `Vary`, such as `Accept-Language`. Default none. See `CacheKey.init(request:ignoredParameters:keyHeaders:)`.
    public var cacheKeyHeaders: Set<String> = []
    /// The client that sends the requests. Default ``HTTPClient/shared``.
    public var client: HTTPClient
    /// Connect, idle and total timeouts. Default `Timeouts()`: 30 s to connect, 60 s idle,
    /// no total limit.
    public var timeouts: Timeouts
    /// The statuses requests accept unless they say otherwise. Default
    /// ``StatusValidation/successCodes`` (`200..<300`).
    public var validation: StatusValidation
    /// Interceptors every request runs, after the client's and before the request's own.
    /// Default none.
    public var interceptors: [any RequestInterceptor]
    /// Hooks every request reports to, after the global ``Hooks/shared`` ones and before the
    /// request's own. Default none.
    public var hooks: [any HTTPHook]
    /// Whether requests answer from sample data instead of the network (Moya's stub
    /// closure). Default ``StubBehavior/never``.
    public var stubBehavior: StubBehavior
    /// What answers requests in place of the network, in order, each able to hand a request on
    /// to the next and the last to the network: `ChainTesting`'s stub table and cassette
    /// (`configuration.stubs`, `configuration.cassette`), or your own. A request's own stub
    /// (``Request/stub(_:)-(Stub)``, or stubbing by ``stubBehavior``) wins over them.
    /// Default none.
    public var responders: [any TransferResponder] = []
    /// Moya's `stubClosure`: whether a request made from a target (``Request/target(_:)``)
    /// answers from its sample data, per target; it is asked once, when the request starts.
    /// It overrides ``stubBehavior`` for such requests, and a request's own ``Request/stub(_:)-(StubBehavior)``
    /// overrides it; where it answers `nil`, ``stubBehavior`` decides. Default `nil`.
    /// ``stubTargets(_:_:)`` sets it for one target type.
    public var stubClosure: (@Sendable (any TargetType) -> StubBehavior?)?
    /// The cookie jar every request sends cookies from and stores `Set-Cookie` fields in (each
    /// redirect hop and retry included). Default ``CookieJar/shared``, the process's in-memory
    /// jar that AFStyle's ``HTTPSessionManager/shared`` uses too, as URLSession's shared cookie
    /// storage; `nil` sends and stores no cookies. A `Cookie` field set by hand is sent as it
    /// is, with the jar's other cookies after it.
    public var cookieJar: CookieJar? = CookieJar.shared
    /// TLS settings of requests that do not set their own (``Request/tls(_:)``): a CA file, a
    /// pinned public key, a client certificate. Default `TLSOptions()`: the peer and host name
    /// are verified against the system CA store.
    public var tls = TLSOptions()
    /// The proxy of requests that do not set their own (``Request/proxy(_:)``). Default
    /// ``Proxy/environment``: the `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy`
    /// variables apply, as in curl; ``Proxy/none`` ignores them.
    public var proxy = Proxy.environment
    /// The Unix domain socket requests connect to unless they set their own
    /// (``Request/unixSocket(_:)``). Default `nil`: TCP to the URL's host.
    public var unixSocket: String?
    /// Credentials for the origin's authentication challenge, for requests that do not set
    /// their own (``Request/authentication(_:)``). Default `nil`: none.
    public var authentication: Authentication?

    /// The default callback queue: one serial queue, `chain.callbacks`, shared by every
    /// configuration that does not name another.
    public static let defaultCallbackQueue = HTTPClient.makeCallbackQueue(label: "chain.callbacks")

    /// Makes a configuration; every argument has the default stated on its property.
    public init(baseURL: URL? = nil, headers: HTTPHeaders = HTTPHeaders(), envelope: Envelope? = nil,
                errorBody: ErrorBodyDecoder? = nil, decoding: JSONDecoding = .fast(),
                encoder: JSONEncoder = ChainConfiguration.makeDefaultEncoder(),
                callbackQueue: DispatchQueue = ChainConfiguration.defaultCallbackQueue,
                cachePolicy: CachePolicy? = nil, cache: ResponseCache = .shared, client: HTTPClient = .shared,
                timeouts: Timeouts = Timeouts(), validation: StatusValidation = .successCodes,
                interceptors: [any RequestInterceptor] = [], hooks: [any HTTPHook] = [],
                stubBehavior: StubBehavior = .never) {
        self.baseURL = baseURL
        self.headers = headers
        self.envelope = envelope
        self.errorBody = errorBody
        self.decoding = decoding
        self.encoder = encoder
        self.callbackQueue = callbackQueue
        self.cachePolicy = cachePolicy
        self.cache = cache
        self.client = client
        self.timeouts = timeouts
        self.validation = validation
        self.interceptors = interceptors
        self.hooks = hooks
        self.stubBehavior = stubBehavior
    }

    /// A `JSONEncoder` with `.sortedKeys`, the default ``encoder``.
    public static func makeDefaultEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// A GET request to `url` (absolute, or relative to ``baseURL``) that uses this
    /// configuration instead of ``Request/defaults``.
    public func url(_ url: String) -> Request {
        Request.url(url).configuration(self)
    }

    /// A GET request to `url` that uses this configuration instead of ``Request/defaults``.
    public func url(_ url: URL) -> Request {
        Request.url(url).configuration(self)
    }

    /// A request for a Moya-style target that uses this configuration instead of
    /// ``Request/defaults``.
    public func target(_ target: some TargetType) -> Request {
        Request.target(target).configuration(self)
    }
}

extension ChainConfiguration {
    /// Decides stubbing for the targets of type `Target` with `closure` (Moya's
    /// `MoyaProvider<Target>(stubClosure:)`); targets of other types keep the ``stubClosure``
    /// that was there (and ``stubBehavior`` when there was none).
    ///
    /// ```swift
    /// configuration.stubTargets(UserAPI.self) { target in
    ///     switch target {
    ///     case .login: .immediate
    ///     case .users: .delayed(seconds: 0.2)
    ///     }
    /// }
    /// ```
    public mutating func stubTargets<Target: TargetType & SendableMetatype>(_ type: Target.Type,
                                                         _ closure: @escaping @Sendable (Target) -> StubBehavior) {
        let earlier = stubClosure
        stubClosure = { target in
            if let target = target as? Target { return closure(target) }
            return earlier?(target)
        }
    }
}
