import Foundation

/// Everything the engine needs to perform one HTTP exchange. A plain value: copy it, change
/// it, send it as often as you like.
///
/// Copy-on-write: the fields live in one shared box, so the many hand-offs of a request
/// through the pipeline (interceptors, retries, coalescing, the engine) copy a reference,
/// not a dozen fields; a change copies the box only when another value still shares it.
public struct HTTPRequest: Sendable, Hashable {
    /// Every field, as one plain value: what the box holds, and what the traffic coalescer's
    /// groups keep and compare (a struct stored in the group itself, so comparing requests
    /// never reads a box another thread made).
    package struct Fields: Sendable, Hashable {
        var url: URL
        var method: HTTPMethod
        var headers: HTTPHeaders
        var body: HTTPBody
        var timeouts: Timeouts
        var maximumResponseSize: Int64
        var redirectPolicy: RedirectPolicy
        var tls: TLSOptions
        var httpVersion: HTTPVersionPreference
        var download: DownloadOptions?
        var priority: RequestPriority
        /// The proxy and the socket; `nil` for the common request (the environment's proxy,
        /// TCP), so that it carries nothing to retain on each of its many hand-offs.
        var route: Route?
        /// Credentials for the origin's challenge; `nil` (the default) for none.
        var authentication: Authentication?
        /// Set on every redirect hop after the chain left the first request's origin: no
        /// credentials are sent, whatever an interceptor adds (see ``HTTPRequest/withholdsCredentials``).
        var withholdsCredentials = false
        /// Where the body of an accepted response goes as it arrives, instead of into
        /// ``HTTPResponse/body``; `nil` (the default) collects it.
        var responseStream: ResponseStream?
        /// The caller's tags and attachment (``HTTPRequest/tags``), which equality ignores.
        var annotations = Annotations()

        /// The method and URL only; equality still compares everything (see ``HTTPRequest/hash(into:)``).
        package func hash(into hasher: inout Hasher) {
            hasher.combine(method)
            hasher.combine(url.absoluteString)
        }
    }

    /// The box. It is never changed while it is shared (see `storageForWriting`).
    private final class Storage: @unchecked Sendable {
        // Why @unchecked Sendable: `fields` is written only through `storageForWriting`, i.e.
        // while exactly one HTTPRequest value holds the box, so a box other values (or
        // threads) can see is never written again.
        //
        // `@exclusivity(unchecked)`: the dynamic check cannot find anything the rules above do
        // not already exclude. A write reaches `fields` only while one value owns the box, and
        // that value's own accesses are checked (statically, or dynamically where it lives in
        // a class); a read through another value would mean the box was shared, and then the
        // write would have gone to a copy. The check ran about ten times per request in the
        // engine alone, 76 instructions each.
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private var storage: Storage

    /// The box, copied first when another value shares it.
    private var storageForWriting: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            return storage
        }
    }

    /// All fields as one value.
    package var fields: Fields { storage.fields }

    /// Whether the request names a proxy (other than the environment's) or a Unix socket.
    package var hasRoute: Bool { storage.fields.route != nil }

    /// A request's proxy and Unix socket, when either is not the default.
    package struct Route: Sendable, Hashable {
        var proxy: Proxy
        var unixSocketPath: String?

        /// `nil` for the defaults (the environment's proxy, no socket).
        static func make(proxy: Proxy, unixSocketPath: String?) -> Route? {
            proxy.kind == .environment && unixSocketPath == nil ? nil : Route(proxy: proxy, unixSocketPath: unixSocketPath)
        }
    }

    /// Compares every field; two copies of one value compare equal without looking at them.
    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes the method and URL only: equal requests still hash equally, and the traffic
    /// coalescer hashes every `GET`, where hashing headers, TLS options and timeouts showed up
    /// in profiles. Equality still compares everything.
    public func hash(into hasher: inout Hasher) {
        storage.fields.hash(into: &hasher)
    }

    /// The URL. Only `http` and `https` are accepted (and `http+unix`/`https+unix`, see
    /// ``unixSocketPath``); anything else fails with ``NetworkError/Kind/unsupportedScheme``
    /// before libcurl sees it.
    public var url: URL {
        get { storage.fields.url }
        set { storageForWriting.fields.url = newValue }
    }
    /// The method. Default `GET`.
    public var method: HTTPMethod {
        get { storage.fields.method }
        set { storageForWriting.fields.method = newValue }
    }
    /// The header fields. Default: none (the engine adds `User-Agent`, `Accept-Encoding`
    /// and, for bodies, `Content-Length`).
    public var headers: HTTPHeaders {
        get { storage.fields.headers }
        _modify { yield &storageForWriting.fields.headers }
    }
    /// The body. Default ``HTTPBody/none``.
    public var body: HTTPBody {
        get { storage.fields.body }
        set { storageForWriting.fields.body = newValue }
    }
    /// Connect, idle and total timeouts. Default ``Timeouts/init(connect:idle:total:)``'s defaults.
    public var timeouts: Timeouts {
        get { storage.fields.timeouts }
        _modify { yield &storageForWriting.fields.timeouts }
    }
    /// The most bytes of (decoded) body accepted in memory before the transfer fails with
    /// ``NetworkError/Kind/responseTooLarge``; a body whose `Content-Length` is larger fails at
    /// its first bytes. Only bodies count: a `HEAD` or a `304` succeeds whatever length it
    /// announces. Default 100 MiB. Downloads to a file use ``DownloadOptions/maximumSize`` instead.
    public var maximumResponseSize: Int64 {
        get { storage.fields.maximumResponseSize }
        set { storageForWriting.fields.maximumResponseSize = newValue }
    }
    /// How redirects are handled. Default: follow up to 10, `http` and `https` only.
    public var redirectPolicy: RedirectPolicy {
        get { storage.fields.redirectPolicy }
        set { storageForWriting.fields.redirectPolicy = newValue }
    }
    /// TLS settings. Default: verify the peer and host name against the system CA store.
    public var tls: TLSOptions {
        get { storage.fields.tls }
        _modify { yield &storageForWriting.fields.tls }
    }
    /// Whether to negotiate HTTP/2. Default ``HTTPVersionPreference/automatic``
    /// (HTTP/2 over TLS when the server offers it, HTTP/1.1 otherwise).
    public var httpVersion: HTTPVersionPreference {
        get { storage.fields.httpVersion }
        set { storageForWriting.fields.httpVersion = newValue }
    }
    /// When set, the body is written to a file instead of memory. Default `nil`.
    public var download: DownloadOptions? {
        get { storage.fields.download }
        _modify { yield &storageForWriting.fields.download }
    }
    /// Which waiting request to the same host starts first when the client's per-host cap
    /// (``HTTPClient/Configuration/maximumConcurrentRequestsPerHost``) is reached.
    /// Default ``RequestPriority/normal``; equal priorities start in the order they were sent.
    public var priority: RequestPriority {
        get { storage.fields.priority }
        set { storageForWriting.fields.priority = newValue }
    }

    /// The proxy. Default ``Proxy/environment``: the `http_proxy`, `https_proxy`, `all_proxy`
    /// and `no_proxy` variables apply, as in curl(1); ``Proxy/none`` ignores them.
    public var proxy: Proxy {
        get { storage.fields.route?.proxy ?? .environment }
        set { storageForWriting.fields.route = Route.make(proxy: newValue, unixSocketPath: unixSocketPath) }
    }
    /// A Unix domain socket to connect to instead of the URL's host and port (the URL still
    /// gives the `Host` header, the path and the scheme). Default `nil`: TCP. A URL of the form
    /// `http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.43/info` names the socket itself (its host
    /// is the percent-encoded path; it is sent as `http://localhost/v1.43/info`); this
    /// property wins over it.
    public var unixSocketPath: String? {
        get { storage.fields.route?.unixSocketPath }
        set { storageForWriting.fields.route = Route.make(proxy: proxy, unixSocketPath: newValue) }
    }

    /// Credentials for the origin's authentication challenge (Basic, Digest, NTLM, Negotiate,
    /// or whichever the server offers), answered by libcurl. Default `nil`: none (an
    /// `Authorization` header set by hand is sent as it is). Dropped on a redirect to another
    /// origin; see ``Authentication``.
    public var authentication: Authentication? {
        get { storage.fields.authentication }
        set { storageForWriting.fields.authentication = newValue }
    }

    /// Whether this request is a redirect hop after the chain left the origin of the call's
    /// first request: the pipeline then removes `Authorization` and `Proxy-Authorization`
    /// again after the interceptors adapted it, and the transport sends no ``authentication``.
    package var withholdsCredentials: Bool {
        get { storage.fields.withholdsCredentials }
        set { storageForWriting.fields.withholdsCredentials = newValue }
    }

    /// The stream the transport hands an accepted response's body to, chunk by chunk; `nil`
    /// (the default) collects the body. A streamed request is never coalesced, cached or
    /// retried once its body began to stream.
    package var responseStream: ResponseStream? {
        get { storage.fields.responseStream }
        set { storageForWriting.fields.responseStream = newValue }
    }

    /// Replaces the caller's annotations (see `HTTPRequest+Tags.swift`).
    mutating func setAnnotations(_ annotations: Annotations) {
        storageForWriting.fields.annotations = annotations
    }

    /// Makes a request. Every argument but the URL has the default stated on its property.
    public init(url: URL, method: HTTPMethod = .get, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .none,
                timeouts: Timeouts = Timeouts(), maximumResponseSize: Int64 = 100 * 1024 * 1024,
                redirectPolicy: RedirectPolicy = .follow(maximum: 10), tls: TLSOptions = TLSOptions(),
                httpVersion: HTTPVersionPreference = .automatic, download: DownloadOptions? = nil,
                priority: RequestPriority = .normal, proxy: Proxy = .environment, unixSocketPath: String? = nil) {
        storage = Storage(Fields(url: url, method: method, headers: headers, body: body, timeouts: timeouts,
                                 maximumResponseSize: maximumResponseSize, redirectPolicy: redirectPolicy, tls: tls,
                                 httpVersion: httpVersion, download: download, priority: priority,
                                 route: Route.make(proxy: proxy, unixSocketPath: unixSocketPath), authentication: nil))
    }

    /// Makes a request from a URL string.
    /// - Throws: ``NetworkError/Kind/invalidURL`` when the string is not a URL with a host.
    public init(_ urlString: String, method: HTTPMethod = .get) throws(NetworkError) {
        guard let url = URL(string: urlString), url.host != nil else {
            throw NetworkError(.invalidURL, "not a valid URL: \(urlString)")
        }
        self.init(url: url, method: method)
    }
}

/// How urgently a request should start when requests to its host are waiting.
public enum RequestPriority: Int, Sendable, Hashable, Comparable {
    /// Prefetching and other work nobody waits for.
    case low = 0
    /// The default.
    case normal = 1
    /// What the user is waiting for right now.
    case high = 2

    public static func < (lhs: RequestPriority, rhs: RequestPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// The three timeouts of a transfer, in seconds. `0`, `.infinity` and any value too large for
/// libcurl (over 24 days) disable one; a negative value or NaN fails the request with
/// ``NetworkError/Kind/invalidRequest`` before anything is sent.
public struct Timeouts: Sendable, Hashable {
    /// Seconds to establish the TCP connection and TLS handshake. Default 30.
    public var connect: TimeInterval
    /// Seconds without receiving or sending a single byte (of a response head, a body or an
    /// upload), counted from when the request is about to be sent, before the request fails
    /// with ``NetworkError/Kind/timedOut`` — the counterpart of
    /// `URLSessionConfiguration.timeoutIntervalForRequest`. A stream that sends a byte now and
    /// then never times out, however slow. Default 60. Checked about once a second, so the
    /// failure may come up to a second late.
    public var idle: TimeInterval
    /// Seconds for the whole exchange, redirects included. Default 0 (no limit), like
    /// OkHttp's call timeout; set it for calls that must finish by a deadline.
    public var total: TimeInterval

    /// Makes timeouts; the defaults are connect 30 s, idle 60 s, no total limit.
    public init(connect: TimeInterval = 30, idle: TimeInterval = 60, total: TimeInterval = 0) {
        self.connect = connect
        self.idle = idle
        self.total = total
    }

    /// The longest limit libcurl takes, in milliseconds (its timers are 32-bit on some
    /// platforms); anything longer means no limit.
    static let longestMilliseconds = Double(Int32.max)

    /// Refuses a negative or NaN timeout (`.infinity` and huge values mean no limit).
    /// - Throws: ``NetworkError/Kind/invalidRequest`` naming the timeout.
    package func validate() throws(NetworkError) {
        for (name, value) in [("connect", connect), ("idle", idle), ("total", total)] where value.isNaN || value < 0 {
            throw NetworkError(.invalidRequest, "the \(name) timeout is \(value) s; use a positive number of seconds, or 0 or .infinity for no limit")
        }
    }

    /// `seconds` as libcurl's milliseconds, rounded up: 0 (no limit) for 0, a non-finite or
    /// negative value, or one longer than ``longestMilliseconds``.
    package static func milliseconds(_ seconds: TimeInterval) -> Int {
        let value = (seconds * 1000).rounded(.up)
        guard value.isFinite, value > 0, value <= longestMilliseconds else { return 0 }
        return Int(value)
    }

    /// `seconds` in nanoseconds, under the same rules as ``milliseconds(_:)`` (0: no limit).
    package static func nanoseconds(_ seconds: TimeInterval) -> UInt64 {
        let milliseconds = milliseconds(seconds)
        guard milliseconds > 0 else { return 0 }
        return UInt64((seconds * 1_000_000_000).rounded(.up))
    }

    /// `seconds` for a message: "3 s", "1.5 s".
    package static func describe(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite else { return "\(seconds) s" }
        return seconds == seconds.rounded() && abs(seconds) < 1e15 ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

/// Which HTTP version to negotiate.
public enum HTTPVersionPreference: Sendable, Hashable {
    /// HTTP/2 over TLS when the server offers it (ALPN), HTTP/1.1 for plain `http`.
    case automatic
    /// HTTP/1.1 only.
    case http1_1
    /// HTTP/2 with prior knowledge on plain `http` (h2c), HTTP/2 over TLS for `https`.
    case http2PriorKnowledge
}

/// TLS settings. Verification of the peer certificate and host name is always on unless
/// ``allowsInsecureConnections`` is set, which exists for local development only.
public struct TLSOptions: Sendable, Hashable {
    /// A PEM file of CA certificates to trust instead of the system store. Default `nil`.
    public var caFile: URL?
    /// A pinned public key: `"sha256//<base64>"` (several joined by `;`) or a PEM/DER file
    /// path. The connection fails with ``NetworkError/Kind/tls`` when the server's key does
    /// not match. Default `nil` (no pinning).
    public var pinnedPublicKey: String?
    /// A client certificate (PEM) for mutual TLS. Default `nil`.
    public var clientCertificate: URL?
    /// The client certificate's private key (PEM). Default `nil`.
    public var clientKey: URL?
    /// The private key's pass phrase. Default `nil`.
    public var clientKeyPassword: String?
    /// Skips peer and host verification. Default `false`. Never set this in production:
    /// it lets anyone on the path read and change the traffic.
    public var allowsInsecureConnections: Bool

    /// Makes TLS options; every default keeps full verification against the system store.
    public init(caFile: URL? = nil, pinnedPublicKey: String? = nil, clientCertificate: URL? = nil,
                clientKey: URL? = nil, clientKeyPassword: String? = nil, allowsInsecureConnections: Bool = false) {
        self.caFile = caFile
        self.pinnedPublicKey = pinnedPublicKey
        self.clientCertificate = clientCertificate
        self.clientKey = clientKey
        self.clientKeyPassword = clientKeyPassword
        self.allowsInsecureConnections = allowsInsecureConnections
    }
}

/// How a download is written to disk.
public struct DownloadOptions: Sendable, Hashable {
    /// The file the body is written to. Its directory must exist.
    public var destination: URL
    /// Whether an existing partial file is continued with a `Range` request. Default `false`
    /// (the file is replaced). GET only (RFC 9110 §14.2 defines ranges for GET alone): with
    /// another method the request fails with ``NetworkError/Kind/invalidRequest`` before it is sent.
    ///
    /// The request carries `Range: bytes=N-` (N the file's length) and, when the file keeps the
    /// validator of the response that wrote it, `If-Range` with it (its strong `ETag`, else its
    /// `Last-Modified`; kept in the file's extended attribute `user.chain.validator`, written by
    /// resumable downloads only; without one — a file system without user extended attributes
    /// — the range is asked for without `If-Range`). The answer decides:
    /// - `206` starting at byte N: appended.
    /// - `200` (the server ignores ranges, or the resource changed and `If-Range` did not
    ///   match): the file is rewritten from the start.
    /// - `206` starting elsewhere: ``NetworkError/Kind/invalidResponse``, the file untouched.
    /// - `416` with `Content-Range: bytes */N`: the file is already complete; the download
    ///   succeeds (delivered as status 200) with the file as it is. Another `416` is delivered
    ///   as it is and the file left alone (delete it to download again).
    public var resumesPartialFile: Bool
    /// The most bytes written before the transfer fails with ``NetworkError/Kind/responseTooLarge``.
    /// Default `nil` (no limit).
    public var maximumSize: Int64?

    /// Makes download options; by default the file is replaced and there is no size limit.
    public init(destination: URL, resumesPartialFile: Bool = false, maximumSize: Int64? = nil) {
        self.destination = destination
        self.resumesPartialFile = resumesPartialFile
        self.maximumSize = maximumSize
    }
}
