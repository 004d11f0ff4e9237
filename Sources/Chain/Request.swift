import Dispatch
import Foundation
import Synchronization

/// An HTTP request described fluently, then sent with a terminal method:
///
/// ```swift
/// Request.url("http://127.0.0.1:8080/account/login")
///     .method(.post)
///     .params(["username": "wiki", "password": "secret"])
///     .cache(.fileFirst)
///     .response(User.self) { result in … }      // Result<User, NetworkError>
/// ```
///
/// A `Request` is an immutable, `Sendable` value: every modifier returns a changed copy, so a
/// base request (base URL, headers, envelope, common parameters) can be kept and reused:
///
/// ```swift
/// let api = Request.url("http://127.0.0.1:8080/").header("X-App", "demo").envelope(.errcode)
/// api.url("envelope/user/101").response(User.self) { … }   // http://127.0.0.1:8080/envelope/user/101
/// ```
///
/// A relative URL given to `url(_:)` resolves against the base request's own
/// absolute URL as a browser resolves a link (RFC 3986: `http://h/api/` + `user/1` is
/// `http://h/api/user/1`, while `http://h/api` + `user/1` is `http://h/user/1`); a request
/// without an absolute URL of its own resolves against its configuration's
/// ``ChainConfiguration/baseURL``.
///
/// Nothing is checked or converted until a terminal method runs: an invalid URL, an
/// unsupported parameter value or a relative URL without a base URL is reported through the
/// completion (``NetworkError/Kind/invalidURL``, ``NetworkError/Kind/invalidParameters``),
/// exactly once, never as a crash.
///
/// Settings a request does not make come from its configuration: ``defaults`` (read when the
/// request starts) or the one given with ``configuration(_:)``.
public struct Request: Sendable {
    /// Where the URL comes from.
    enum Location: Sendable {
        case string(String)
        case url(URL)
        /// A target's `path` under its own `baseURL` (``URLResolution``), whatever the
        /// configuration's base URL.
        case target(path: String, baseURL: URL)
    }

    /// Parameters as given: converted to the core's Sendable form up front (`[String: Any]`
    /// cannot be kept in a Sendable value), or an `Encodable` encoded when the request starts.
    enum Parameters: Sendable {
        case dictionary([String: Parameter])
        case encodable(any Encodable & Sendable, encoder: JSONEncoder?)
        case invalid(NetworkError)
    }

    /// A body given explicitly (instead of parameters).
    struct ExplicitBody: Sendable {
        var body: HTTPBody
        var contentType: String?
    }

    /// The answer used when stubbing is on.
    struct Sample: Sendable {
        var data: Data
        var statusCode: Int
        var headers: HTTPHeaders
    }

    var location: Location
    /// The absolute URL the request had when ``url(_:)`` gave it another: what a
    /// relative new URL resolves against. `nil` for a request made with a relative URL only.
    var base: URL?
    var method: HTTPMethod?
    var parameters: Parameters?
    var queryParameters: Parameters?
    var encoding: ParameterEncoding?
    var headers = HTTPHeaders()
    var explicitBody: ExplicitBody?
    var timeouts: Timeouts?
    var totalTimeout: TimeInterval?
    var tls: TLSOptions?
    var redirectPolicy: RedirectPolicy?
    var maximumResponseSize: Int64?
    var priority: RequestPriority?
    var httpVersion: HTTPVersionPreference?
    var proxy: Proxy?
    var unixSocketPath: String?
    var authentication: Authentication?
    var cachePolicy: CachePolicy??
    var ignoredCacheParameters: Set<String> = []
    var validation: StatusValidation?
    var envelope: Envelope??
    var errorBody: (@Sendable (JSONDecoding) -> ErrorBodyDecoder)?
    var decoding: JSONDecoding?
    var encoder: JSONEncoder?
    var queue: DispatchQueue?
    var progressHandler: (@Sendable (TransferProgress) -> Void)?
    var interceptors: [any RequestInterceptor] = []
    var hooks: [any HTTPHook] = []
    var usesGlobalHooks = true
    var explicitStub: Stub?
    var sample: Sample?
    var stubBehavior: StubBehavior?
    /// The target a request was made from: what the configuration's
    /// ``ChainConfiguration/stubClosure`` is asked about.
    var stubTarget: StubTarget?
    /// Tags for hooks and interceptors (``tag(_:)``), a target's included.
    var tags: Set<String> = []
    /// The payload's key path (``keyPath(_:)``), replacing the envelope's.
    var keyPath: String?
    var pinnedConfiguration: ChainConfiguration?

    init(location: Location) {
        self.location = location
    }

    /// A GET request to `url`: absolute (`"https://h/user/1"`) or relative to the
    /// configuration's ``ChainConfiguration/baseURL`` (`"user/1"`). An invalid string is
    /// reported through the completion as ``NetworkError/Kind/invalidURL``.
    public static func url(_ url: String) -> Request {
        Request(location: .string(url))
    }

    /// A GET request to `url`.
    public static func url(_ url: URL) -> Request {
        Request(location: .url(url))
    }

    /// This request with another URL, keeping everything else — for base requests:
    /// `api.url("user/101")`. A relative string resolves against this request's own absolute
    /// URL (RFC 3986, as a link in a page: keep the base's trailing `/` to stay under its
    /// path), or, when this request has none, against the configuration's
    /// ``ChainConfiguration/baseURL``. An absolute string replaces the URL.
    public func url(_ url: String) -> Request {
        var copy = self
        copy.base = ownAbsoluteURL
        copy.location = .string(url)
        return copy
    }

    /// This request with another URL, keeping everything else; a relative URL resolves as in
    /// ``url(_:)``.
    public func url(_ url: URL) -> Request {
        var copy = self
        copy.base = ownAbsoluteURL
        copy.location = .url(url)
        return copy
    }

    // MARK: Defaults

    private static let defaultsStorage = Mutex(ChainConfiguration())

    /// The configuration requests use unless made from another one; read when a request
    /// starts. Default ``ChainConfiguration/init(baseURL:headers:envelope:errorBody:decoding:encoder:callbackQueue:cachePolicy:cache:client:timeouts:validation:interceptors:hooks:stubBehavior:)``
    /// with all its defaults. Thread-safe; to change several settings at once use
    /// ``updateDefaults(_:)``.
    public static var defaults: ChainConfiguration {
        get { defaultsStorage.withLock { $0 } }
        set { defaultsStorage.withLock { $0 = newValue } }
    }

    /// Changes ``defaults`` in one atomic step.
    public static func updateDefaults(_ change: (inout ChainConfiguration) -> Void) {
        defaultsStorage.withLock { change(&$0) }
    }

    /// The configuration this request uses: its own, or ``defaults`` as they are now.
    public var effectiveConfiguration: ChainConfiguration {
        pinnedConfiguration ?? Request.defaults
    }
}
