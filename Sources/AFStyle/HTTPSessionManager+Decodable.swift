import Foundation

/// The typed variants of the verbs: the body — or, with ``HTTPSessionManager/envelope``, its
/// payload — decoded into a `Decodable` model with ``HTTPSessionManager/jsonDecoding``
/// (FastJSON by default), so `success` gets `(task, model)` instead of `(task, responseObject)`.
///
/// ```swift
/// manager.GET("user/101", parameters: nil, as: User.self, success: { task, user in
///     print(user.name)
/// }, failure: { task, error in
///     print(error.codingPath ?? "", error)   // a decoding failure names the coding path
/// })
/// ```
///
/// Validation is the response serializer's (status, content type) plus the envelope's code;
/// a body that does not decode fails with ``NetworkError/Kind/decodingFailed``. `keyPath`
/// (default `nil`) decodes the payload at a dotted key path of the body, Moya's
/// `map(_:atKeyPath:)`: with ``HTTPSessionManager/envelope`` set its codes are still checked
/// and the key path replaces its payload path; without one nothing else is checked. Everything
/// else is as for the untyped verbs; every parameter but `URLString` and `type` defaults to `nil`.
extension HTTPSessionManager {
    /// `GET`, parameters in the query, decoded into `T`. See the extension's documentation.
    @discardableResult
    public func GET<T: Decodable & Sendable>(
        _ URLString: String, parameters: Any? = nil, as type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.get, URLString, parameters: parameters, as: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `POST`, parameters in the body, decoded into `T`. See the extension's documentation.
    @discardableResult
    public func POST<T: Decodable & Sendable>(
        _ URLString: String, parameters: Any? = nil, as type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.post, URLString, parameters: parameters, as: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `PUT`, parameters in the body, decoded into `T`. See the extension's documentation.
    @discardableResult
    public func PUT<T: Decodable & Sendable>(
        _ URLString: String, parameters: Any? = nil, as type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.put, URLString, parameters: parameters, as: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `PATCH`, parameters in the body, decoded into `T`. See the extension's documentation.
    @discardableResult
    public func PATCH<T: Decodable & Sendable>(
        _ URLString: String, parameters: Any? = nil, as type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.patch, URLString, parameters: parameters, as: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `DELETE`, parameters in the query, decoded into `T`. See the extension's documentation.
    @discardableResult
    public func DELETE<T: Decodable & Sendable>(
        _ URLString: String, parameters: Any? = nil, as type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.delete, URLString, parameters: parameters, as: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// Any method, decoded into `T`. See the extension's documentation.
    @discardableResult
    public func dataTask<T: Decodable & Sendable>(
        _ method: HTTPMethod, _ URLString: String, parameters: Any? = nil, as type: T.Type,
        keyPath: String? = nil, headers: [String: String]? = nil, cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        let configuration = configuration
        return send(configuration: configuration, method: method, URLString: URLString,
                    build: { configuration throws(NetworkError) in
            try makeRequest(method, URLString, parameters: parameters, headers: headers, configuration: configuration)
        }, plan: HTTPSessionManager.decodablePlan(type, configuration, keyPath: keyPath), cache: cacheStep(cachePolicy, configuration),
           progressDirection: HTTPSessionManager.progressDirection(for: method), progress: progress,
           failure: failure) { task, delivery in
            HTTPSessionManager.route(delivery, task: task, success: success, failure: failure)
        }
    }
}
