import Dispatch
import Foundation

/// Everything one start of a request needs, resolved against its configuration.
struct PreparedCall: Sendable {
    /// The request to send, or why it could not be built and what is known of it.
    enum Built: Sendable {
        case request(HTTPRequest)
        case failure(NetworkError, known: HTTPRequest?)
    }

    let client: HTTPClient
    let built: Built
    let options: CallOptions
    let validation: ResponseValidation
    /// The decoder of the model, the envelope's code and the error body.
    let decoding: JSONDecoding

    /// Runs the call through the pipeline: the request, or a build failure through
    /// ``HTTPClient/perform(unbuildable:request:plan:options:deliver:)``, which sends nothing.
    ///
    /// - Parameters:
    ///   - options: replaces ``options`` for a request that was built. Default `nil`: ``options``.
    ///   - adjust: changes a built request before it is sent. Default: no change.
    func perform<Value>(plan: ResponsePlan<Value>, options: CallOptions? = nil,
                        adjust: (inout HTTPRequest) -> Void = { _ in },
                        deliver: @escaping @Sendable (Delivery<Value>) -> Void) -> HTTPTask {
        switch built {
        case .request(var request):
            adjust(&request)
            return client.perform(request, plan: plan, options: options ?? self.options, deliver: deliver)
        case .failure(let error, let known):
            return client.perform(unbuildable: error, request: known, plan: plan, options: self.options, deliver: deliver)
        }
    }
}

extension Request {
    /// Resolves the configuration and builds the core request, the validation and the call
    /// options. Never throws: a build failure becomes ``PreparedCall/Built/failure(_:known:)``.
    ///
    /// - Parameter queue: overrides the callback queue (the blocking form uses its own).
    func prepare(queue overridingQueue: DispatchQueue? = nil) -> PreparedCall {
        let configuration = effectiveConfiguration
        let decoding = self.decoding ?? configuration.decoding
        var envelope = self.envelope ?? configuration.envelope
        if let keyPath { envelope = (envelope ?? Envelope(checks: [])).payload(at: keyPath) }
        let validation = ResponseValidation(
            status: (self.validation ?? configuration.validation).acceptance,
            envelope: envelope,
            errorBody: errorBody.map { $0(decoding) } ?? configuration.errorBody,
            decoding: decoding)
        var options = CallOptions(queue: overridingQueue ?? queue ?? configuration.callbackQueue,
                                  progress: progressHandler,
                                  hooks: configuration.hooks + hooks,
                                  usesGlobalHooks: usesGlobalHooks,
                                  interceptors: configuration.interceptors + interceptors,
                                  origin: "Chain")
        options.cookies = configuration.cookieJar
        do throws(NetworkError) {
            let request = try makeHTTPRequest(configuration: configuration)
            if let policy = cachePolicy ?? configuration.cachePolicy {
                options.cache = configuration.cache.step(for: policy, ignoredParameters: ignoredCacheParameters,
                                                         keyHeaders: configuration.cacheKeyHeaders)
            }
            options.stub = resolvedStub(configuration: configuration)
            options.responders = configuration.responders
            return PreparedCall(client: configuration.client, built: .request(request), options: options,
                                validation: validation, decoding: decoding)
        } catch {
            return PreparedCall(client: configuration.client, built: .failure(error, known: knownRequest(configuration: configuration)),
                                options: options, validation: validation, decoding: decoding)
        }
    }

    /// The core request: URL, method, headers, parameters or body, timeouts.
    func makeHTTPRequest(configuration: ChainConfiguration) throws(NetworkError) -> HTTPRequest {
        let url = try resolveURL(baseURL: configuration.baseURL)
        let method = self.method ?? .get
        var timeouts = self.timeouts ?? configuration.timeouts
        if let totalTimeout { timeouts.total = totalTimeout }
        var request = HTTPRequest(url: url, method: method, headers: configuration.headers.merging(headers),
                                  timeouts: timeouts, tls: tls ?? configuration.tls)
        if let redirectPolicy { request.redirectPolicy = redirectPolicy }
        if let maximumResponseSize { request.maximumResponseSize = maximumResponseSize }
        if let priority { request.priority = priority }
        if let httpVersion { request.httpVersion = httpVersion }
        // Set only when not the default: a request without a route carries nothing to copy.
        let proxy = self.proxy ?? configuration.proxy
        if proxy.kind != .environment { request.proxy = proxy }
        if let socket = unixSocketPath ?? configuration.unixSocket { request.unixSocketPath = socket }
        if let credentials = authentication ?? configuration.authentication { request.authentication = credentials }
        if let error = request.callerValueError { throw error }
        annotate(&request)
        let encoder = self.encoder ?? configuration.encoder
        if let queryParameters {
            try ParameterEncoding.query.encode(try Request.dictionary(queryParameters, encoder: encoder), into: &request)
        }
        if let explicitBody {
            request.body = explicitBody.body
            if let contentType = explicitBody.contentType, !request.headers.contains("Content-Type") {
                request.headers["Content-Type"] = contentType
            }
            // The body is taken, so parameters can only go into the query.
            if let parameters {
                try ParameterEncoding.query.encode(try Request.dictionary(parameters, encoder: encoder), into: &request)
            }
        } else if let parameters {
            let encoding = self.encoding ?? .default(for: method)
            if encoding == .json, case .encodable(let value, let ownEncoder) = parameters {
                // Encoded as it is, so custom `encode(to:)` and date strategies apply.
                request.body = .data(try Request.encode(value, with: ownEncoder ?? encoder))
                if !request.headers.contains("Content-Type") { request.headers["Content-Type"] = "application/json" }
            } else {
                try encoding.encode(try Request.dictionary(parameters, encoder: encoder), into: &request)
            }
        }
        return request
    }

    /// An absolute URL; a relative one resolved against the URL of the request it was made
    /// from (``base``, as a link), else against the configuration's base URL, by the one
    /// rule of ``URLResolution``.
    func resolveURL(baseURL: URL?) throws(NetworkError) -> URL {
        let url: URL
        switch location {
        case .url(let given):
            url = given.scheme == nil && given.host == nil ? try resolve(given.relativeString, baseURL: baseURL) : given
        case .string(let string):
            url = try resolve(string, baseURL: baseURL)
        case .target(let path, let targetBase):
            url = try URLResolution.resolve(path, againstDirectory: URLResolution.directory(targetBase))
        }
        guard TransferTarget.hasHost(url) else {
            throw NetworkError(.invalidURL, "the URL has no host: \(url.absoluteString)")
        }
        return url
    }

    /// The request's URL when it is absolute without a configuration: an absolute location,
    /// or a relative one under ``base``. What a later ``url(_:)`` resolves against.
    var ownAbsoluteURL: URL? {
        let url: URL?
        switch location {
        case .url(let given):
            if given.scheme != nil, given.host != nil { return given.absoluteURL }
            url = base.flatMap { try? URLResolution.resolve(given.relativeString, againstDirectory: $0) }
        case .string(let string):
            url = base.flatMap { try? URLResolution.resolve(string, againstDirectory: $0) }
                ?? (try? URLResolution.resolve(string, againstDirectory: nil))
        case .target(let path, let targetBase):
            url = try? URLResolution.resolve(path, againstDirectory: URLResolution.directory(targetBase))
        }
        return url.flatMap { TransferTarget.hasHost($0) ? $0 : nil }
    }

    /// A request made from another resolves against that request's URL as it is (a link in
    /// a page); otherwise the configuration's base URL is the directory.
    private func resolve(_ relative: String, baseURL: URL?) throws(NetworkError) -> URL {
        try URLResolution.resolve(relative, againstDirectory: base ?? baseURL.map(URLResolution.directory))
    }

    private static func dictionary(_ parameters: Parameters, encoder: JSONEncoder) throws(NetworkError) -> [String: Parameter] {
        switch parameters {
        case .dictionary(let dictionary):
            return dictionary
        case .invalid(let error):
            throw error
        case .encodable(let value, let ownEncoder):
            let data = try encode(value, with: ownEncoder ?? encoder)
            guard let object = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
                  let dictionary = object as? [String: Any] else {
                throw NetworkError(.invalidParameters, "\(type(of: value)) does not encode to a JSON object, so it cannot be query or form parameters")
            }
            return try Parameter.dictionary(from: dictionary)
        }
    }

    private static func encode(_ value: any Encodable, with encoder: JSONEncoder) throws(NetworkError) -> Data {
        do {
            return try encoder.encode(value)
        } catch {
            throw NetworkError(.invalidParameters, "could not encode \(type(of: value)): \(error)", underlyingError: error)
        }
    }

    /// The stub in effect: the request's own, else the sample data when stubbing is on.
    private func resolvedStub(configuration: ChainConfiguration) -> Stub? {
        if let explicitStub { return explicitStub }
        let delay: TimeInterval
        let targetBehavior = stubTarget.flatMap { stub in configuration.stubClosure?(stub.target) }
        switch stubBehavior ?? targetBehavior ?? configuration.stubBehavior {
        case .never: return nil
        case .immediate: delay = 0
        case .delayed(let seconds): delay = seconds
        }
        guard let sample else {
            return Stub(body: Data(), delay: delay,
                        error: NetworkError(.invalidRequest, "stubbing is on but the request has no sample data"))
        }
        return Stub(statusCode: sample.statusCode, headers: sample.headers, body: sample.data, delay: delay)
    }

    /// What hooks see for a request that could not be built: its method and its URL as far as
    /// it resolved (the base URL when the URL itself did not; the pipeline's placeholder
    /// without either), as AFStyle reports one.
    private func knownRequest(configuration: ChainConfiguration) -> HTTPRequest? {
        var base = configuration.baseURL
        if case .target(_, let targetBase) = location { base = targetBase }
        guard let url = (try? resolveURL(baseURL: configuration.baseURL)) ?? base else { return nil }
        var request = HTTPRequest(url: url, method: method ?? .get)
        annotate(&request)
        return request
    }

    /// Gives a request this request's tags and target, for hooks and interceptors; also a
    /// request that could not be built, so that hooks can still tell a silent call.
    private func annotate(_ request: inout HTTPRequest) {
        if !tags.isEmpty { request.tags = tags }
        if let stubTarget { request.attachment = stubTarget }
    }
}
