import Dispatch
import FastJSON
import Foundation

// Every modifier returns a changed copy; the receiver is never modified.
extension Request {
    /// The method. Default `GET`.
    public func method(_ method: HTTPMethod) -> Request {
        var copy = self
        copy.method = method
        return copy
    }

    /// Parameters from a `[String: Any]` tree (strings, numbers, Booleans, `NSNull`, dates,
    /// URLs, arrays and nested dictionaries; see ``Parameter/init(any:path:)``), merged into
    /// any set before (the new keys win). Where they go is decided by ``encoding(_:)``.
    /// An unsupported value is reported through the completion as
    /// ``NetworkError/Kind/invalidParameters``, naming its key path.
    public func params(_ parameters: [String: Any]) -> Request {
        var copy = self
        do {
            copy.parameters = Request.merge(copy.parameters, .dictionary(try Parameter.dictionary(from: parameters)))
        } catch {
            copy.parameters = .invalid(error)
        }
        return copy
    }

    /// Parameters in the core's form, merged into any set before (the new keys win).
    public func params(_ parameters: [String: Parameter]) -> Request {
        var copy = self
        copy.parameters = Request.merge(copy.parameters, .dictionary(parameters))
        return copy
    }

    /// Parameters from an `Encodable` value, replacing any set before. With the `.json`
    /// encoding the value is encoded as it is (custom `encode(to:)`, date strategies); with
    /// `.query` or `.form` it must encode to a JSON object, whose members become the
    /// parameters. Encoding failures are reported through the completion as
    /// ``NetworkError/Kind/invalidParameters``.
    ///
    /// - Parameters:
    ///   - value: the parameters.
    ///   - encoder: the encoder. Default `nil`: the request's ``encoder(_:)`` or the
    ///     configuration's ``ChainConfiguration/encoder``.
    public func params(encodable value: some Encodable & Sendable, encoder: JSONEncoder? = nil) -> Request {
        var copy = self
        copy.parameters = .encodable(value, encoder: encoder)
        return copy
    }

    /// Parameters that always go into the URL query, whatever the method and
    /// ``encoding(_:)`` — for a body plus query parameters. Merged into any set before.
    public func query(_ parameters: [String: Any]) -> Request {
        var copy = self
        do {
            copy.queryParameters = Request.merge(copy.queryParameters, .dictionary(try Parameter.dictionary(from: parameters)))
        } catch {
            copy.queryParameters = .invalid(error)
        }
        return copy
    }

    /// Where ``params(_:)-([String:Any])`` go: `.query`, `.form` or `.json`. Default
    /// `ParameterEncoding.default(for: method)`: the URL query for `GET`, `HEAD` and
    /// `DELETE`, a form body for every other method.
    public func encoding(_ encoding: ParameterEncoding) -> Request {
        var copy = self
        copy.encoding = encoding
        return copy
    }

    /// Adds headers; each name replaces a header of the same name set before (and the
    /// configuration's).
    public func headers(_ headers: HTTPHeaders) -> Request {
        var copy = self
        copy.headers = copy.headers.merging(headers)
        return copy
    }

    /// Sets one header, replacing one of the same name.
    public func header(_ name: String, _ value: String) -> Request {
        var copy = self
        copy.headers[name] = value
        return copy
    }

    /// Sends `data` as the body. Parameters then go into the URL query.
    ///
    /// - Parameters:
    ///   - data: the body.
    ///   - contentType: the `Content-Type`, unless a header sets one. Default `nil` (none).
    public func body(_ data: Data, contentType: String? = nil) -> Request {
        var copy = self
        copy.explicitBody = ExplicitBody(body: .data(data), contentType: contentType)
        return copy
    }

    /// Streams a file from disk as the body. Parameters then go into the URL query.
    ///
    /// - Parameters:
    ///   - fileURL: the file; a missing one fails with ``NetworkError/Kind/fileIO``.
    ///   - contentType: the `Content-Type`, unless a header sets one. Default `nil` (none).
    public func body(fileURL: URL, contentType: String? = nil) -> Request {
        var copy = self
        copy.explicitBody = ExplicitBody(body: .file(fileURL), contentType: contentType)
        return copy
    }

    /// Sends the chunks of `stream` as the body, read while the request is sent, in bounded
    /// memory (see ``BodyStream``). Parameters then go into the URL query. The body is sent
    /// once: the request is never retried, and a `307`/`308` redirect fails with
    /// ``NetworkError/Kind/invalidRequest``.
    ///
    /// - Parameters:
    ///   - stream: the chunks; an error it throws fails the request.
    ///   - length: the total byte count, sent as `Content-Length`; `nil` (unknown) sends the
    ///     body chunked over HTTP/1.1.
    ///   - contentType: the `Content-Type`, unless a header sets one. Default `nil` (none).
    public func body<Chunks: AsyncSequence & Sendable>(stream: Chunks, length: Int64?,
                                                       contentType: String? = nil) -> Request where Chunks.Element == Data {
        var copy = self
        copy.explicitBody = ExplicitBody(body: .stream(BodyStream(stream, length: length)), contentType: contentType)
        return copy
    }

    /// Sends what `inputStream` reads as the body, in bounded memory; otherwise as
    /// ``body(stream:length:contentType:)``.
    ///
    /// - Parameters:
    ///   - inputStream: the stream, opened and closed by the request; use it for nothing else.
    ///   - length: the total byte count, or `nil` (sent chunked).
    ///   - contentType: the `Content-Type`, unless a header sets one. Default `nil` (none).
    public func body(inputStream: InputStream, length: Int64?, contentType: String? = nil) -> Request {
        var copy = self
        copy.explicitBody = ExplicitBody(body: .stream(BodyStream(inputStream: inputStream, length: length)),
                                         contentType: contentType)
        return copy
    }

    /// Sends a `multipart/form-data` body (file parts stream from disk). Parameters then go
    /// into the URL query.
    public func multipart(_ form: MultipartFormData) -> Request {
        var copy = self
        copy.explicitBody = ExplicitBody(body: .multipart(form), contentType: nil)
        return copy
    }

    /// Fails the request with ``NetworkError/Kind/timedOut`` when it takes longer than
    /// `seconds` in total — the whole call: waiting behind the per-host cap, every attempt,
    /// retry delays and waits for interceptors. Default: no total limit (the configuration's
    /// ``ChainConfiguration/timeouts``: 30 s to connect, 60 s without data).
    public func timeout(_ seconds: TimeInterval) -> Request {
        var copy = self
        copy.totalTimeout = seconds
        return copy
    }

    /// All three timeouts (a ``timeout(_:)`` still sets the total). Default: the
    /// configuration's ``ChainConfiguration/timeouts``.
    public func timeouts(_ timeouts: Timeouts) -> Request {
        var copy = self
        copy.timeouts = timeouts
        return copy
    }

    /// TLS settings for this request: a CA file, a pinned public key, a client certificate
    /// (see ``TLSOptions``). Default: the configuration's ``ChainConfiguration/tls``, which
    /// verifies the peer and host name against the system CA store.
    public func tls(_ options: TLSOptions) -> Request {
        var copy = self
        copy.tls = options
        return copy
    }

    /// How redirects are handled: `.follow(maximum:)` (`http` and `https` only; each hop's
    /// method, body and credentials as ``RedirectPolicy`` describes), `.none` to get the 3xx
    /// response itself, or `.custom { hop in … }` to decide each hop (follow, follow a changed
    /// request, or stop). Default `.follow(maximum: 10)`.
    public func redirects(_ policy: RedirectPolicy) -> Request {
        var copy = self
        copy.redirectPolicy = policy
        return copy
    }

    /// The most body bytes accepted in memory; a larger body fails with
    /// ``NetworkError/Kind/responseTooLarge``. Default 100 MiB. For big files use
    /// ``download(to:resumesPartialFile:maximumSize:completion:)``, which streams to disk.
    public func maximumResponseSize(_ bytes: Int64) -> Request {
        var copy = self
        copy.maximumResponseSize = bytes
        return copy
    }

    /// Which waiting request to the same host starts first when the client's per-host cap is
    /// reached. Default ``RequestPriority/normal``.
    public func priority(_ priority: RequestPriority) -> Request {
        var copy = self
        copy.priority = priority
        return copy
    }

    /// Which HTTP version to negotiate. Default ``HTTPVersionPreference/automatic`` (HTTP/2
    /// over TLS when the server offers it, HTTP/1.1 otherwise).
    public func httpVersion(_ version: HTTPVersionPreference) -> Request {
        var copy = self
        copy.httpVersion = version
        return copy
    }

    /// The proxy for this request: `.http(host:port:credentials:)`, `.https(…)` (TLS to the
    /// proxy), `.socks5(…)` (names resolved by the proxy), `.none` (direct, whatever the
    /// environment says), each with `bypassing(_:)` for hosts reached directly. Default: the
    /// configuration's ``ChainConfiguration/proxy``, ``Proxy/environment`` unless set (the
    /// `http_proxy`, `https_proxy`, `all_proxy` and `no_proxy` variables, as in curl). A proxy
    /// that refuses the credentials fails with ``NetworkError/Kind/proxyAuthenticationRequired(proxy:)``.
    public func proxy(_ proxy: Proxy) -> Request {
        var copy = self
        copy.proxy = proxy
        return copy
    }

    /// Credentials for the origin's authentication challenge, answered by libcurl:
    /// `.basic(user:password:)` (sent with the first request), `.digest(…)`, `.ntlm(…)`,
    /// `.negotiate` (Kerberos) or `.any(…)` (whichever the server offers, the safest first),
    /// each but Basic costing the round trip of a `401`. Default: the configuration's
    /// ``ChainConfiguration/authentication`` (`nil`: none). Credentials the server refuses end
    /// as its `401` (``NetworkError/Kind/unacceptableStatus(_:)`` under the default
    /// validation); the password is never logged and is part of the cache key's digest.
    public func authentication(_ credentials: Authentication) -> Request {
        var copy = self
        copy.authentication = credentials
        return copy
    }

    /// Connects to the Unix domain socket at `path` instead of the URL's host and port (the
    /// URL still gives the path and the `Host` header): `Request.url("http://localhost/v1.43/info")
    /// .unixSocket("/var/run/docker.sock")`. The URL form `http+unix://%2Fvar%2Frun%2Fdocker.sock/v1.43/info`
    /// says the same without this call. Default: the configuration's
    /// ``ChainConfiguration/unixSocket`` (`nil`: TCP). The path is part of the cache key.
    public func unixSocket(_ path: String) -> Request {
        var copy = self
        copy.unixSocketPath = path
        return copy
    }

    /// How the response cache is used. Default: the configuration's
    /// ``ChainConfiguration/cachePolicy`` (`nil`: no cache). With `.fileFirst`, a hit calls the
    /// completion twice: the stored copy, then the network result.
    ///
    /// - Parameters:
    ///   - policy: the policy, or `nil` to keep this request away from the cache.
    ///   - ignoredParameters: parameter names left out of the cache key (timestamps,
    ///     nonces). Default none.
    public func cache(_ policy: CachePolicy?, ignoringParameters ignoredParameters: Set<String> = []) -> Request {
        var copy = self
        copy.cachePolicy = .some(policy)
        copy.ignoredCacheParameters = ignoredParameters
        return copy
    }

    /// Accepts exactly these statuses. Default `200..<300`.
    public func validate(statusCodes: some Sequence<Int>) -> Request {
        validate(.codes(Set(statusCodes)))
    }

    /// Accepts what `validation` accepts. Default ``StatusValidation/successCodes``.
    public func validate(_ validation: StatusValidation) -> Request {
        var copy = self
        copy.validation = validation
        return copy
    }

    /// Accepts responses for which `isAcceptable` returns `true`; the others fail with
    /// ``NetworkError/Kind/unacceptableStatus(_:)``. Default: statuses `200..<300`.
    public func validate(_ isAcceptable: @escaping @Sendable (HTTPResponse) -> Bool) -> Request {
        validate(.custom(isAcceptable))
    }

    /// Unwraps this envelope: its code is checked during validation (a business failure is
    /// ``NetworkError/Kind/business(code:message:)`` and is never cached) and its payload is
    /// what gets decoded. `nil` turns off the configuration's envelope. Default: the
    /// configuration's ``ChainConfiguration/envelope``.
    public func envelope(_ envelope: Envelope?) -> Request {
        var copy = self
        copy.envelope = .some(envelope)
        return copy
    }

    /// Decodes the payload at a dotted key path of the body — Moya's `map(_:atKeyPath:)`:
    /// `.keyPath("data.list").response([Item].self)`. Without an envelope nothing else is
    /// checked; with one (this request's or the configuration's) its codes are still checked
    /// and `path` (from the body's top) replaces its payload path. A missing payload decodes
    /// only into an optional; `""` means the whole body. Default: the envelope's payload path,
    /// or the whole body.
    public func keyPath(_ path: String) -> Request {
        var copy = self
        copy.keyPath = path
        return copy
    }

    /// Adds a tag for hooks and interceptors (``HTTPCore/HTTPRequest/tags``), e.g.
    /// `.tag("silent")` for a call a progress display skips. Never sent, not part of the
    /// cache key; kept across redirects and retries. Default: none (a target's
    /// ``TargetType/tags`` when made from one).
    public func tag(_ tag: String) -> Request {
        var copy = self
        copy.tags.insert(tag)
        return copy
    }

    /// Adds several tags (see ``tag(_:)``).
    public func tags(_ tags: Set<String>) -> Request {
        var copy = self
        copy.tags.formUnion(tags)
        return copy
    }

    /// Decodes the body of a rejected response as `type` (with the request's decoder); the
    /// value becomes the error's ``NetworkError/underlyingError`` while the kind stays
    /// ``NetworkError/Kind/unacceptableStatus(_:)``. A body that does not decode gives a
    /// generic status error with the raw body. Default: the configuration's
    /// ``ChainConfiguration/errorBody``.
    public func errorBody<Body: Decodable & Error>(_ type: Body.Type) -> Request {
        var copy = self
        copy.errorBody = { decoding in ErrorBodyDecoder(Body.self, decoding: decoding) }
        return copy
    }

    /// Decodes the model, the envelope's code and the error body with Foundation's `decoder`,
    /// and `responseJSON` with `JSONSerialization` — the switch back from FastJSON for this
    /// request; the same as `decoding(.foundation(decoder))`. Default: the configuration's
    /// ``ChainConfiguration/decoding`` (FastJSON, `.fast()`).
    public func decoder(_ decoder: JSONDecoder) -> Request {
        decoding(.foundation(decoder))
    }

    /// Decodes the model, the envelope's code and the error body with this FastJSON decoder
    /// (e.g. one with `.convertFromSnakeCase`); the same as `decoding(.fast(decoder))`.
    /// Default: the configuration's ``ChainConfiguration/decoding`` (`.fast()`).
    public func decoder(_ decoder: FastJSONDecoder) -> Request {
        decoding(.fast(decoder))
    }

    /// The decoder for the model, the envelope's code, the error body and ``responseJSON(completion:)``:
    /// `.fast(…)` (FastJSON) or `.foundation(…)` (`JSONDecoder`, and `JSONSerialization` for
    /// JSON objects). Both give the same values and errors. Default: the configuration's
    /// ``ChainConfiguration/decoding`` (`.fast()`).
    public func decoding(_ decoding: JSONDecoding) -> Request {
        var copy = self
        copy.decoding = decoding
        return copy
    }

    /// The encoder for `Encodable` parameters. Default: the configuration's
    /// ``ChainConfiguration/encoder`` (sorted keys).
    public func encoder(_ encoder: JSONEncoder) -> Request {
        var copy = self
        copy.encoder = encoder
        return copy
    }

    /// Where the completion, progress and hooks run. Default: the configuration's
    /// ``ChainConfiguration/callbackQueue`` (a private serial queue).
    public func queue(_ queue: DispatchQueue) -> Request {
        var copy = self
        copy.queue = queue
        return copy
    }

    /// Upload and download progress (throttled, monotonic), on the callback queue.
    /// Default none.
    public func progress(_ handler: @escaping @Sendable (TransferProgress) -> Void) -> Request {
        var copy = self
        copy.progressHandler = handler
        return copy
    }

    /// Adds an interceptor (adapting the request, deciding retries), run after the client's
    /// and the configuration's. Default none.
    public func interceptor(_ interceptor: some RequestInterceptor) -> Request {
        var copy = self
        copy.interceptors.append(interceptor)
        return copy
    }

    /// Adds a retry policy — any interceptor whose `retry` decides, such as ``RetryPolicy``.
    /// The same as ``interceptor(_:)``, named for reading. Default: no retries.
    public func retry(_ policy: some RequestInterceptor) -> Request {
        interceptor(policy)
    }

    /// Adds a hook that sees only this request, after the global and configuration hooks.
    public func hook(_ hook: any HTTPHook) -> Request {
        var copy = self
        copy.hooks.append(hook)
        return copy
    }

    /// Whether the global ``Hooks/shared`` hooks see this request. Default `true`.
    public func usesGlobalHooks(_ uses: Bool) -> Request {
        var copy = self
        copy.usesGlobalHooks = uses
        return copy
    }

    /// Answers with `stub` instead of the network (no connection is made); interceptors,
    /// validation, decoding and hooks still run. Default: no stub.
    public func stub(_ stub: Stub) -> Request {
        var copy = self
        copy.explicitStub = stub
        return copy
    }

    /// Answers from the sample data (``sampleData(_:statusCode:headers:)`` or the target's)
    /// instead of the network. Default: the configuration's
    /// ``ChainConfiguration/stubBehavior`` (``StubBehavior/never``).
    public func stub(_ behavior: StubBehavior = .immediate) -> Request {
        var copy = self
        copy.stubBehavior = behavior
        return copy
    }

    /// The answer a stubbed request gives (see ``stub(_:)-(StubBehavior)``).
    ///
    /// - Parameters:
    ///   - data: the body.
    ///   - statusCode: the status. Default 200.
    ///   - headers: the headers. Default `Content-Type: application/json`.
    public func sampleData(_ data: Data, statusCode: Int = 200,
                           headers: HTTPHeaders = ["Content-Type": "application/json"]) -> Request {
        var copy = self
        copy.sample = Sample(data: data, statusCode: statusCode, headers: headers)
        return copy
    }

    /// Uses `configuration` instead of ``defaults``. Settings made on the request still win.
    public func configuration(_ configuration: ChainConfiguration) -> Request {
        var copy = self
        copy.pinnedConfiguration = configuration
        return copy
    }

    /// Dictionaries merge (new keys win); anything else replaces.
    static func merge(_ old: Parameters?, _ new: Parameters) -> Parameters {
        guard case .dictionary(let existing)? = old, case .dictionary(let added) = new else { return new }
        return .dictionary(existing.merging(added) { _, new in new })
    }
}
