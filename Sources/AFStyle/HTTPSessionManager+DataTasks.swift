import Foundation

/// AFNetworking's convenience methods, one per HTTP method, under their original names.
///
/// Every one of them:
/// - resolves `URLString` against ``HTTPSessionManager/baseURL`` (see ``HTTPSessionManager/url(for:)``);
/// - encodes `parameters` with the ``HTTPSessionManager/requestSerializer`` (`nil`, a
///   `[String: Any]` dictionary, or an array for a JSON body) and sets `headers` on top of its
///   default headers;
/// - checks and decodes the response with the ``HTTPSessionManager/responseSerializer``;
/// - calls `progress` with the upload (`POST`, `PUT`, `PATCH`) or download (the others)
///   reports, and `success(task, responseObject)` or `failure(task, error)` once, on the
///   ``HTTPSessionManager/completionQueue``;
/// - returns the running task, or `nil` when the request could not be built (an invalid URL,
///   bad parameters), in which case `failure` gets a `nil` task.
///
/// Every parameter after `URLString` defaults to `nil`; a `nil` `cachePolicy` means the
/// manager's ``HTTPSessionManager/cachePolicy``.
extension HTTPSessionManager {
    /// The `success` closure of the verbs: the task and the `responseObject`.
    public typealias SuccessHandler = @Sendable (SessionTask, Any?) -> Void
    /// The `failure` closure of every call: the task (`nil` when the request could not be
    /// built) and the error.
    public typealias FailureHandler = @Sendable (SessionTask?, NetworkError) -> Void
    /// The `progress` closure: one throttled, monotonic report.
    public typealias ProgressHandler = @Sendable (TransferProgress) -> Void

    /// `GET`, parameters in the query. See the extension's documentation.
    @discardableResult
    public func GET(_ URLString: String, parameters: Any? = nil, headers: [String: String]? = nil,
                    cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil, success: SuccessHandler? = nil,
                    failure: FailureHandler? = nil) -> SessionTask? {
        dataTask(.get, URLString, parameters: parameters, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `HEAD`, parameters in the query; `success` gets only the task (there is no body).
    /// See the extension's documentation.
    @discardableResult
    public func HEAD(_ URLString: String, parameters: Any? = nil, headers: [String: String]? = nil,
                     success: (@Sendable (SessionTask) -> Void)? = nil,
                     failure: FailureHandler? = nil) -> SessionTask? {
        let configuration = configuration
        return send(configuration: configuration, method: .head, URLString: URLString,
                    build: { configuration throws(NetworkError) in
            try makeRequest(.head, URLString, parameters: parameters, headers: headers, configuration: configuration)
        }, plan: HTTPSessionManager.statusPlan(configuration), progressDirection: .download, progress: nil,
           failure: failure) { task, delivery in
            switch delivery.result {
            case .success: success?(task)
            case .failure(let error): failure?(task, error)
            }
        }
    }

    /// `POST`, parameters in the body. See the extension's documentation.
    @discardableResult
    public func POST(_ URLString: String, parameters: Any? = nil, headers: [String: String]? = nil,
                     cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil, success: SuccessHandler? = nil,
                     failure: FailureHandler? = nil) -> SessionTask? {
        dataTask(.post, URLString, parameters: parameters, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `PUT`, parameters in the body. See the extension's documentation.
    @discardableResult
    public func PUT(_ URLString: String, parameters: Any? = nil, headers: [String: String]? = nil,
                    cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil, success: SuccessHandler? = nil,
                    failure: FailureHandler? = nil) -> SessionTask? {
        dataTask(.put, URLString, parameters: parameters, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `PATCH`, parameters in the body. See the extension's documentation.
    @discardableResult
    public func PATCH(_ URLString: String, parameters: Any? = nil, headers: [String: String]? = nil,
                      cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil, success: SuccessHandler? = nil,
                      failure: FailureHandler? = nil) -> SessionTask? {
        dataTask(.patch, URLString, parameters: parameters, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `DELETE`, parameters in the query. See the extension's documentation.
    @discardableResult
    public func DELETE(_ URLString: String, parameters: Any? = nil, headers: [String: String]? = nil,
                       cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil, success: SuccessHandler? = nil,
                       failure: FailureHandler? = nil) -> SessionTask? {
        dataTask(.delete, URLString, parameters: parameters, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// Any method, `responseObject` from the response serializer (`dataTaskWithHTTPMethod:`).
    /// See the extension's documentation.
    @discardableResult
    public func dataTask(_ method: HTTPMethod, _ URLString: String, parameters: Any? = nil,
                         headers: [String: String]? = nil, cachePolicy: CachePolicy? = nil,
                         progress: ProgressHandler? = nil, success: SuccessHandler? = nil,
                         failure: FailureHandler? = nil) -> SessionTask? {
        let configuration = configuration
        return send(configuration: configuration, method: method, URLString: URLString,
                    build: { configuration throws(NetworkError) in
            try makeRequest(method, URLString, parameters: parameters, headers: headers, configuration: configuration)
        }, plan: HTTPSessionManager.objectPlan(configuration), cache: cacheStep(cachePolicy, configuration),
           progressDirection: HTTPSessionManager.progressDirection(for: method), progress: progress,
           failure: failure) { task, delivery in
            HTTPSessionManager.route(delivery, task: task, success: success, failure: failure)
        }
    }

    /// Resolves the URL string and serializes the parameters with the given settings.
    package func makeRequest(_ method: HTTPMethod, _ URLString: String, parameters: Any?, headers: [String: String]?,
                     configuration: Configuration) throws(NetworkError) -> HTTPRequest {
        let url = try resolvedURL(URLString, configuration: configuration)
        return try configuration.requestSerializer.makeRequest(method: method, url: url, parameters: parameters,
                                                               headers: headers)
    }
}
