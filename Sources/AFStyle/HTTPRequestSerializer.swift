import Foundation

/// Turns a call's method, URL, parameters and headers into an ``HTTPRequest``: the counterpart
/// of `AFHTTPRequestSerializer` (``http``) and `AFJSONRequestSerializer` (``json``).
///
/// A value: change it and assign it back, or mutate it in place through the manager
/// (`manager.requestSerializer.setAuthorizationHeader(username:password:)`); the manager's
/// calls made afterwards use the new settings.
public struct HTTPRequestSerializer: Sendable, Hashable {
    /// How parameters are written for methods outside ``httpMethodsEncodingParametersInURI``.
    /// ``http`` uses ``ParameterEncoding/form``, ``json`` uses ``ParameterEncoding/json``.
    public var bodyEncoding: ParameterEncoding
    /// The methods whose parameters go into the URL query. Default `GET`, `HEAD` and `DELETE`.
    public var httpMethodsEncodingParametersInURI: Set<HTTPMethod>
    /// Headers sent with every request; a call's own `headers` win over them. Default none
    /// (the engine adds `User-Agent` and `Accept-Encoding`).
    public var httpRequestHeaders: HTTPHeaders
    /// Seconds without a byte sent or received before a call fails with
    /// ``NetworkError/Kind/timedOut`` (`timeoutInterval` of `NSURLRequest`). Default 60.
    /// `.infinity` (or any huge value) means no limit; a negative value or NaN fails the call
    /// with ``NetworkError/Kind/invalidRequest``.
    public var timeoutInterval: TimeInterval
    /// The most body bytes a call accepts in memory before failing with
    /// ``NetworkError/Kind/responseTooLarge``. Default 100 MiB (``HTTPRequest``'s default).
    /// Downloads to a file are not held to it (they have their own `maximumSize`). A negative
    /// value fails the call with ``NetworkError/Kind/invalidRequest``.
    public var maximumResponseSize: Int64 = 100 * 1024 * 1024

    /// `AFHTTPRequestSerializer`: parameters in the query for `GET`, `HEAD` and `DELETE`, in
    /// an `application/x-www-form-urlencoded` body for every other method.
    public static var http: HTTPRequestSerializer { HTTPRequestSerializer(bodyEncoding: .form) }

    /// `AFJSONRequestSerializer`: parameters in the query for `GET`, `HEAD` and `DELETE`, in
    /// an `application/json` body (sorted keys) for every other method.
    public static var json: HTTPRequestSerializer { HTTPRequestSerializer(bodyEncoding: .json) }

    /// Makes a serializer; every argument has the default stated on its property
    /// (`bodyEncoding` defaults to ``ParameterEncoding/form``, as ``http``).
    public init(bodyEncoding: ParameterEncoding = .form,
                httpMethodsEncodingParametersInURI: Set<HTTPMethod> = [.get, .head, .delete],
                httpRequestHeaders: HTTPHeaders = HTTPHeaders(), timeoutInterval: TimeInterval = 60) {
        self.bodyEncoding = bodyEncoding
        self.httpMethodsEncodingParametersInURI = httpMethodsEncodingParametersInURI
        self.httpRequestHeaders = httpRequestHeaders
        self.timeoutInterval = timeoutInterval
    }

    /// Sets a default header, or removes it when `value` is `nil`.
    public mutating func setValue(_ value: String?, forHTTPHeaderField field: String) {
        httpRequestHeaders[field] = value
    }

    /// The default header's value, or `nil`.
    public func value(forHTTPHeaderField field: String) -> String? {
        httpRequestHeaders[field]
    }

    /// Sends `Authorization: Basic base64(username:password)` with every request.
    public mutating func setAuthorizationHeader(username: String, password: String) {
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        httpRequestHeaders["Authorization"] = "Basic \(credentials)"
    }

    /// Stops sending the `Authorization` header.
    public mutating func clearAuthorizationHeader() {
        httpRequestHeaders["Authorization"] = nil
    }

    /// Builds the request for one call (`requestWithMethod:URLString:parameters:error:`).
    ///
    /// - Parameters:
    ///   - method: the method.
    ///   - url: the resolved URL.
    ///   - parameters: `nil`, a `[String: Any]` dictionary (see ``Parameter/init(any:path:)``
    ///     for the accepted values) or, for a JSON body only, an array.
    ///   - headers: the call's headers, set on top of ``httpRequestHeaders``. Default `nil`.
    /// - Throws: ``NetworkError/Kind/invalidParameters`` for parameters that cannot be encoded,
    ///   ``NetworkError/Kind/invalidURL`` when the query makes an invalid URL,
    ///   ``NetworkError/Kind/invalidRequest`` for a negative or NaN ``timeoutInterval`` or a
    ///   negative ``maximumResponseSize``.
    public func makeRequest(method: HTTPMethod, url: URL, parameters: Any?,
                            headers: [String: String]? = nil) throws(NetworkError) -> HTTPRequest {
        var request = HTTPRequest(url: url, method: method)
        request.headers = httpRequestHeaders.merging(HTTPHeaders(headers ?? [:]))
        request.timeouts.idle = timeoutInterval
        request.maximumResponseSize = maximumResponseSize
        if let error = request.callerValueError { throw error }
        guard let parameters else { return request }
        let encoding = httpMethodsEncodingParametersInURI.contains(method) ? ParameterEncoding.query : bodyEncoding
        if encoding == .json, !(parameters is [String: Any]), let array = parameters as? [Any] {
            // AFJSONRequestSerializer accepts any JSON object, arrays included.
            request.body = .data(try ParameterEncoding.jsonData(try Parameter(any: array)))
            if !request.headers.contains("Content-Type") { request.headers["Content-Type"] = "application/json" }
            return request
        }
        guard let dictionary = parameters as? [String: Any] else {
            throw NetworkError(.invalidParameters,
                               "parameters must be a [String: Any] dictionary\(encoding == .json ? " or an array" : ""), not \(type(of: parameters))")
        }
        try encoding.encode(try Parameter.dictionary(from: dictionary), into: &request)
        return request
    }
}
