import Dispatch
import Foundation
import Synchronization

/// The AFNetworking-style facade: `AFHTTPSessionManager` on libcurl, with its method names
/// (`GET`, `POST`, …) kept on purpose so code written against it ports with little more than
/// syntax changes.
///
/// ```swift
/// let manager = HTTPSessionManager(baseURL: URL(string: "https://api.example.com/v1/"))
/// manager.GET("user/101", parameters: nil, headers: nil, progress: nil, success: { task, object in
///     print(object as? [String: Any] ?? [:])
/// }, failure: { task, error in
///     print(error)
/// })
/// ```
///
/// Use ``shared`` or make instances with ``init(baseURL:client:)``. Every setting can be changed
/// at any time from any thread, as in AFNetworking; a call reads them all once, when it is made,
/// so it never sees half of a change. Each get and each set is atomic; an in-place change such
/// as `manager.requestSerializer.setValue(…)` is a get then a set, so two threads changing the
/// same setting at once may lose one change, as they may in AFNetworking.
/// Calls go through ``HTTPClient/perform(_:plan:options:deliver:)`` with origin `"AFStyle"`,
/// so they report to ``Hooks/shared`` and use the same cache as Chain's calls.
///
/// `success` and `failure` run on ``completionQueue``; exactly one of them runs per call,
/// once — except for a `.fileFirst` cache hit, which calls `success` with the stored copy and
/// then `success` or `failure` with the network's answer.
public final class HTTPSessionManager: Sendable {
    /// The settings a call reads when it is made.
    package struct Configuration: Sendable {
        var baseURL: URL?
        var requestSerializer = HTTPRequestSerializer.http
        package var responseSerializer = HTTPResponseSerializer.json
        var completionQueue: DispatchQueue?
        var interceptors: [any RequestInterceptor] = []
        var redirection: RedirectionBlock?
        var cookieJar: CookieJar? = CookieJar.shared
        var tls = TLSOptions()
        var proxy = Proxy.environment
        var unixSocketPath: String?
        var authentication: Authentication?
        package var jsonDecoding = JSONDecoding.fast()
        var envelope: Envelope?
        var cachePolicy: CachePolicy?
        var responseCache = ResponseCache.shared
        var cacheIgnoredParameters: Set<String> = []
        var cacheKeyHeaders: Set<String> = []
        var responders: [any TransferResponder] = []
        /// Counts the changes, so that a URL resolved under older settings is never reused.
        var generation = 0
    }

    private struct State {
        var configuration: Configuration
        /// Tasks in flight, for ``tasks`` and ``cancelAllTasks()``.
        var tasks: [Int: SessionTask] = [:]
        /// URL strings already resolved under the settings of generation `resolvedGeneration`
        /// (see ``resolvedURL(_:configuration:)``).
        var resolvedURLs: [String: URL] = [:]
        var resolvedGeneration = 0
    }

    /// The most URL strings kept resolved; the whole set is dropped when it is full.
    static let resolvedURLLimit = 256

    /// The manager without a base URL that ported code reaches for first
    /// (`AFHTTPSessionManager.manager`). Its settings are shared by everyone who uses it.
    public static let shared = HTTPSessionManager(baseURL: nil)

    /// The client whose engine (connection pool, loop thread) the calls use. Default
    /// ``HTTPClient/shared``.
    public let client: HTTPClient
    /// Where callbacks run when ``completionQueue`` is `nil`: a serial queue of this manager's.
    let privateQueue: DispatchQueue
    private let state: Mutex<State>

    /// Makes a manager (`initWithBaseURL:`).
    ///
    /// - Parameters:
    ///   - baseURL: what relative URL strings resolve against; a trailing slash is added to a
    ///     non-empty path, as AFNetworking does, so `"user/1"` against `https://h/api` is
    ///     `https://h/api/user/1`. Default `nil`: every URL string must be absolute.
    ///   - client: the client that sends the requests. Default ``HTTPClient/shared``.
    public init(baseURL: URL? = nil, client: HTTPClient = .shared) {
        self.client = client
        self.privateQueue = HTTPClient.makeCallbackQueue(label: "afstyle.completion")
        self.state = Mutex(State(configuration: Configuration(baseURL: baseURL.map(URLResolution.directory))))
    }

    // MARK: Settings

    /// What relative URL strings resolve against (see ``init(baseURL:client:)``), or `nil`.
    /// Setting it adds the trailing slash too.
    public var baseURL: URL? {
        get { configuration.baseURL }
        set { update { $0.baseURL = newValue.map(URLResolution.directory) } }
    }

    /// How requests are built. Default ``HTTPRequestSerializer/http`` (query for `GET`, `HEAD`
    /// and `DELETE`, form body otherwise; no default headers; 60 s timeout).
    public var requestSerializer: HTTPRequestSerializer {
        get { configuration.requestSerializer }
        set { update { $0.requestSerializer = newValue } }
    }

    /// How responses are checked and turned into `responseObject`. Default
    /// ``HTTPResponseSerializer/json`` (statuses 200–299; `application/json`, `text/json`,
    /// `text/javascript`).
    public var responseSerializer: HTTPResponseSerializer {
        get { configuration.responseSerializer }
        set { update { $0.responseSerializer = newValue } }
    }

    /// Where `success`, `failure` and `progress` run. Default `nil`, which means a private
    /// serial queue of this manager's (`afstyle.completion`) — not the main queue, which a
    /// command-line program does not run. Set `.main` in a program that runs the main queue
    /// (`dispatchMain()`, a run loop) to get AFNetworking's behaviour.
    public var completionQueue: DispatchQueue? {
        get { configuration.completionQueue }
        set { update { $0.completionQueue = newValue } }
    }

    /// Interceptors every call runs after the client's (auth headers, signing, retries).
    /// Default none.
    public var interceptors: [any RequestInterceptor] {
        get { configuration.interceptors }
        set { update { $0.interceptors = newValue } }
    }

    /// TLS settings for every call (the counterpart of `securityPolicy`: a CA file, a pinned
    /// public key). Default: verify against the system store.
    public var tlsOptions: TLSOptions {
        get { configuration.tls }
        set { update { $0.tls = newValue } }
    }

    /// The proxy of every call (what AFNetworking took from `connectionProxyDictionary`, which
    /// FoundationNetworking ignores): `.http(host:port:credentials:)`, `.https(…)`,
    /// `.socks5(…)`, `.none`. Default ``Proxy/environment``: the `http_proxy`, `https_proxy`,
    /// `all_proxy` and `no_proxy` variables apply, as in curl.
    public var proxy: Proxy {
        get { configuration.proxy }
        set { update { $0.proxy = newValue } }
    }

    /// A Unix domain socket every call connects to instead of the URL's host (Docker's
    /// `/var/run/docker.sock`); `http+unix://%2Fvar%2Frun%2Fdocker.sock/path` URLs name one
    /// per call. Default `nil`: TCP.
    public var unixSocketPath: String? {
        get { configuration.unixSocketPath }
        set { update { $0.unixSocketPath = newValue } }
    }

    /// Credentials for the origin's authentication challenge on every call, answered by
    /// libcurl (what AFNetworking's `credential` and `setSessionDidReceiveAuthenticationChallengeBlock`
    /// did for HTTP authentication): `.basic(user:password:)` (sent with the first request),
    /// `.digest(…)`, `.ntlm(…)`, `.negotiate` (Kerberos) or `.any(…)`. Default `nil`: none.
    /// Refused credentials end as the server's `401` in `failure`.
    public var authentication: Authentication? {
        get { configuration.authentication }
        set { update { $0.authentication = newValue } }
    }

    /// The decoder of the typed calls (`GET(_:parameters:as:…)`), of the envelope's code and of
    /// the ``HTTPResponseSerializer/json`` serializer's `responseObject`. Default `.fast()`:
    /// FastJSON's `FastJSONDecoder()`, and FastJSON's parser for `responseObject` (the objects
    /// `JSONSerialization` makes). Set `.foundation(JSONDecoder())` (or assign ``jsonDecoder``)
    /// to switch this manager back to Foundation's `JSONDecoder` and `JSONSerialization`.
    /// Both give the same values and the same errors.
    public var jsonDecoding: JSONDecoding {
        get { configuration.jsonDecoding }
        set { update { $0.jsonDecoding = newValue } }
    }

    /// ``jsonDecoding`` as a Foundation `JSONDecoder`. Setting it selects `.foundation(newValue)`
    /// — configure it before making calls: a decoder is a reference the calls share. Reading it
    /// under `.fast` gives a new `JSONDecoder` with the fast decoder's strategies — a copy, so
    /// changing its properties changes nothing: set ``jsonDecoding`` or assign a configured
    /// decoder instead. Default: a plain `JSONDecoder()` standing for `.fast()`.
    public var jsonDecoder: JSONDecoder {
        get { configuration.jsonDecoding.jsonDecoder }
        set { update { $0.jsonDecoding = .foundation(newValue) } }
    }

    /// The business envelope of the server's JSON answers, or `nil` (default) for none. With one,
    /// the JSON serializer's and the typed calls' responses must carry a success code — any
    /// other fails with ``NetworkError/Kind/business(code:message:)`` and is never cached — and
    /// `responseObject` (or the model) is the payload at the envelope's `payloadPath`.
    /// ``HTTPResponseSerializer/data`` and ``HTTPResponseSerializer/string`` ignore it.
    public var envelope: Envelope? {
        get { configuration.envelope }
        set { update { $0.envelope = newValue } }
    }

    /// How calls use ``responseCache`` unless a call passes its own `cachePolicy`, exactly as
    /// Chain's `ChainConfiguration.cachePolicy`. Default `nil`: the cache is not involved at all
    /// (nothing read, nothing stored); ``CachePolicy/networkOnly`` reads nothing but stores
    /// successes for later `.fileFirst` or `.cacheOnly` calls. With ``CachePolicy/fileFirst`` a
    /// hit calls `success` twice: the stored copy first (`task.response?.source == .cache`),
    /// then the network's answer through `success` or `failure`.
    public var cachePolicy: CachePolicy? {
        get { configuration.cachePolicy }
        set { update { $0.cachePolicy = newValue } }
    }

    /// The store the policies use, shared with Chain. Default ``ResponseCache/shared``
    /// (`~/.cache/chain`), opened only when a call uses a policy.
    public var responseCache: ResponseCache {
        get { configuration.responseCache }
        set { update { $0.responseCache = newValue } }
    }

    /// Parameter names left out of cache keys (timestamps, signatures, nonces). Default none.
    public var cacheIgnoredParameters: Set<String> {
        get { configuration.cacheIgnoredParameters }
        set { update { $0.cacheIgnoredParameters = newValue } }
    }

    /// Request headers (any case) whose values become part of every cache key, beside the
    /// credential-like ones that always are (`Cookie` and any name containing `auth`, `token`,
    /// `key` or `session`), exactly as Chain's `ChainConfiguration.cacheKeyHeaders` — for
    /// answers that depend on a header the server does not name in `Vary`. Default none.
    public var cacheKeyHeaders: Set<String> {
        get { configuration.cacheKeyHeaders }
        set { update { $0.cacheKeyHeaders = newValue } }
    }

    /// What answers this manager's requests in place of the network, in order, each able to
    /// hand a request on to the next and the last to the network: `ChainTesting`'s stub table
    /// and cassette (`manager.stubs`, `manager.cassette`), or your own. Default none.
    public var responders: [any TransferResponder] {
        get { configuration.responders }
        set { update { $0.responders = newValue } }
    }

    /// Changes ``responders`` in one step under the manager's lock (the testing kit's
    /// `stubs` and `cassette` properties).
    package func updateResponders(_ change: (inout [any TransferResponder]) -> Void) {
        update { change(&$0.responders) }
    }

    // MARK: Tasks

    /// The tasks in flight, oldest first (`tasks` of AFURLSessionManager).
    public var tasks: [SessionTask] {
        state.withLock { $0.tasks.values.sorted { $0.taskIdentifier < $1.taskIdentifier } }
    }

    /// Cancels every task in flight; each calls its `failure` with ``NetworkError/Kind/cancelled``.
    public func cancelAllTasks() {
        for task in tasks { task.cancel() }
    }

    // MARK: Internals

    /// A consistent copy of the settings.
    package var configuration: Configuration { state.withLock { $0.configuration } }

    func update(_ change: (inout Configuration) -> Void) {
        state.withLock { state in
            change(&state.configuration)
            state.configuration.generation += 1
        }
    }

    /// The URL `URLString` resolved to under the settings of `generation`, if it is kept.
    func keptURL(for URLString: String, generation: Int) -> URL? {
        state.withLock { $0.resolvedGeneration == generation ? $0.resolvedURLs[URLString] : nil }
    }

    /// Keeps what `URLString` resolved to under the settings of `generation`; resolutions
    /// under older settings than those kept are not kept.
    func keep(_ url: URL, for URLString: String, generation: Int) {
        state.withLock { state in
            if state.resolvedGeneration != generation {
                guard generation > state.resolvedGeneration else { return }
                state.resolvedURLs.removeAll()
                state.resolvedGeneration = generation
            }
            if state.resolvedURLs.count >= HTTPSessionManager.resolvedURLLimit { state.resolvedURLs.removeAll() }
            state.resolvedURLs[URLString] = url
        }
    }

    func register(_ task: SessionTask) {
        state.withLock { $0.tasks[task.taskIdentifier] = task }
    }

    func unregister(_ task: SessionTask) {
        _ = state.withLock { $0.tasks.removeValue(forKey: task.taskIdentifier) }
    }

    func queue(for configuration: Configuration) -> DispatchQueue {
        configuration.completionQueue ?? privateQueue
    }

    /// The cache step for a call: its own policy, else the manager's; none without either.
    package func cacheStep(_ policy: CachePolicy?, _ configuration: Configuration) -> (any CacheStep)? {
        guard let policy = policy ?? configuration.cachePolicy else { return nil }
        return configuration.responseCache.step(for: policy, ignoredParameters: configuration.cacheIgnoredParameters,
                                                keyHeaders: configuration.cacheKeyHeaders)
    }
}
