import Foundation
import HTTPCore
import HTTPFeatures

/// The verbs for ObjectMapper models: the body — or, with ``HTTPSessionManager/envelope``,
/// its payload — parsed by FastJSON and mapped with `<-`, so `success` gets `(task, model)`
/// (`object:`) or `(task, models)` (`array:`).
///
/// ```swift
/// manager.GET("user/101", object: User.self, success: { task, user in
///     print(user.name ?? "")
/// }, failure: { task, error in
///     print(error)
/// })
/// ```
///
/// As the `Decodable` verbs (`as:`): validation is the response serializer's plus the
/// envelope's code, the cache and hooks see the call, and `keyPath` (default `nil`) maps the
/// value at a dotted key path of the body in place of the envelope's payload. A body that is
/// not JSON, a payload of the wrong kind, or a model whose `init?(map:)` returns `nil` fails
/// with ``NetworkError/Kind/decodingFailed`` naming the type. In an array, elements the model
/// rejects are dropped, as in ObjectMapper. Models need not be `Sendable`: each delivery maps
/// its own. Every parameter but `URLString` and the type defaults to `nil`.
extension HTTPSessionManager {
    /// `GET`, parameters in the query, mapped into `T`. See the extension's documentation.
    @discardableResult
    public func GET<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, object type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.get, URLString, parameters: parameters, object: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `POST`, parameters in the body, mapped into `T`. See the extension's documentation.
    @discardableResult
    public func POST<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, object type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.post, URLString, parameters: parameters, object: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `PUT`, parameters in the body, mapped into `T`. See the extension's documentation.
    @discardableResult
    public func PUT<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, object type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.put, URLString, parameters: parameters, object: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `PATCH`, parameters in the body, mapped into `T`. See the extension's documentation.
    @discardableResult
    public func PATCH<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, object type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.patch, URLString, parameters: parameters, object: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `DELETE`, parameters in the query, mapped into `T`. See the extension's documentation.
    @discardableResult
    public func DELETE<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, object type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.delete, URLString, parameters: parameters, object: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// Any method, mapped into `T`. See the extension's documentation.
    @discardableResult
    public func dataTask<T: BaseMappable & SendableMetatype>(
        _ method: HTTPMethod, _ URLString: String, parameters: Any? = nil, object type: T.Type,
        keyPath: String? = nil, headers: [String: String]? = nil, cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, T) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        send(method, URLString, parameters: parameters, serializer: .mappedObject(T.self), keyPath: keyPath,
             headers: headers, cachePolicy: cachePolicy, progress: progress, success: success, failure: failure)
    }

    /// `GET`, parameters in the query, mapped into `[T]`. See the extension's documentation.
    @discardableResult
    public func GET<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, array type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, [T]) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.get, URLString, parameters: parameters, array: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `POST`, parameters in the body, mapped into `[T]`. See the extension's documentation.
    @discardableResult
    public func POST<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, array type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, [T]) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.post, URLString, parameters: parameters, array: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `PUT`, parameters in the body, mapped into `[T]`. See the extension's documentation.
    @discardableResult
    public func PUT<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, array type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, [T]) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.put, URLString, parameters: parameters, array: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `PATCH`, parameters in the body, mapped into `[T]`. See the extension's documentation.
    @discardableResult
    public func PATCH<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, array type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, [T]) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.patch, URLString, parameters: parameters, array: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// `DELETE`, parameters in the query, mapped into `[T]`. See the extension's documentation.
    @discardableResult
    public func DELETE<T: BaseMappable & SendableMetatype>(
        _ URLString: String, parameters: Any? = nil, array type: T.Type, keyPath: String? = nil, headers: [String: String]? = nil,
        cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, [T]) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        dataTask(.delete, URLString, parameters: parameters, array: type, keyPath: keyPath, headers: headers, cachePolicy: cachePolicy,
                 progress: progress, success: success, failure: failure)
    }

    /// Any method, mapped into `[T]`. See the extension's documentation.
    @discardableResult
    public func dataTask<T: BaseMappable & SendableMetatype>(
        _ method: HTTPMethod, _ URLString: String, parameters: Any? = nil, array type: T.Type,
        keyPath: String? = nil, headers: [String: String]? = nil, cachePolicy: CachePolicy? = nil, progress: ProgressHandler? = nil,
        success: (@Sendable (SessionTask, [T]) -> Void)? = nil,
        failure: FailureHandler? = nil
    ) -> SessionTask? {
        send(method, URLString, parameters: parameters, serializer: .mappedArray(T.self), keyPath: keyPath,
             headers: headers, cachePolicy: cachePolicy, progress: progress, success: success, failure: failure)
    }

    /// The one path of the verbs above: the plan the `Decodable` verbs make, with the shared
    /// ObjectMapper serializer.
    private func send<Value>(_ method: HTTPMethod, _ URLString: String, parameters: Any?,
                             serializer: ResponseSerializer<MappedHandOff<Value>>, keyPath: String?,
                             headers: [String: String]?, cachePolicy: CachePolicy?, progress: ProgressHandler?,
                             success: (@Sendable (SessionTask, Value) -> Void)?, failure: FailureHandler?) -> SessionTask? {
        let configuration = configuration
        let envelope = HTTPSessionManager.envelope(configuration, keyPath: keyPath)
        let validation = configuration.responseSerializer.validation(envelope: envelope, decoding: configuration.jsonDecoding)
        return send(configuration: configuration, method: method, URLString: URLString,
                    build: { configuration throws(NetworkError) in
            try makeRequest(method, URLString, parameters: parameters, headers: headers, configuration: configuration)
        }, plan: ResponsePlan(validation: validation, serializer: serializer), cache: cacheStep(cachePolicy, configuration),
           progressDirection: HTTPSessionManager.progressDirection(for: method), progress: progress,
           failure: failure) { task, delivery in
            switch delivery.result.unwrapped() {
            case .success(let value): success?(task, value)
            case .failure(let error): failure?(task, error)
            }
        }
    }
}
