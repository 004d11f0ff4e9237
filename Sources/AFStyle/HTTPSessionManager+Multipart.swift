import Foundation

extension HTTPSessionManager {
    /// `POST` with a `multipart/form-data` body
    /// (`POST:parameters:headers:constructingBodyWithBlock:progress:success:failure:`).
    ///
    /// ```swift
    /// manager.POST("upload", parameters: ["album": "holidays"], headers: nil, constructingBodyWith: { formData in
    ///     try formData.appendPart(withFileURL: photoURL, name: "photo", fileName: "beach.jpg", mimeType: "image/jpeg")
    ///     formData.appendPart(withFormData: Data("a caption".utf8), name: "caption")
    /// }, progress: { print($0.fractionCompleted ?? 0) }, success: { task, object in … }, failure: { task, error in … })
    /// ```
    ///
    /// - Parameters:
    ///   - URLString: resolved against ``baseURL``.
    ///   - parameters: form fields written before the block's parts, flattened as
    ///     AFNetworking does (`user[name]`, `ids[]`), keys sorted. `nil` or a `[String: Any]`
    ///     dictionary. Default `nil`.
    ///   - headers: set on top of the request serializer's headers; any `Content-Type` is
    ///     replaced by `multipart/form-data` with its boundary. Default `nil`.
    ///   - block: appends the parts; runs at once, on the calling thread. Files are streamed from
    ///     disk while sending. A missing file (even one whose error the block swallowed with
    ///     `try?`) or any error the block throws fails the call through `failure` with a `nil`
    ///     task — ``NetworkError/Kind/fileIO`` for files — and nothing is sent.
    ///   - progress: upload reports. Default `nil`.
    ///   - success: `(task, responseObject)`. Default `nil`.
    ///   - failure: `(task, error)`. Default `nil`.
    /// - Returns: the running task, or `nil` when the request could not be built.
    @discardableResult
    public func POST(_ URLString: String, parameters: Any? = nil, headers: [String: String]? = nil,
                     constructingBodyWith block: ((MultipartFormBuilder) throws -> Void)?,
                     progress: ProgressHandler? = nil, success: SuccessHandler? = nil,
                     failure: FailureHandler? = nil) -> SessionTask? {
        let configuration = configuration
        return send(configuration: configuration, method: .post, URLString: URLString,
                    build: { configuration throws(NetworkError) in
            var request = try makeRequest(.post, URLString, parameters: nil, headers: headers, configuration: configuration)
            request.headers["Content-Type"] = nil  // libcurl writes it with the boundary
            request.body = .multipart(try HTTPSessionManager.buildForm(parameters: parameters, block: block))
            return request
        }, plan: HTTPSessionManager.objectPlan(configuration), progressDirection: .upload, progress: progress,
           failure: failure) { task, delivery in
            HTTPSessionManager.route(delivery, task: task, success: success, failure: failure)
        }
    }

    static func buildForm(parameters: Any?,
                          block: ((MultipartFormBuilder) throws -> Void)?) throws(NetworkError) -> MultipartFormData {
        let builder = MultipartFormBuilder()
        if let parameters {
            guard let dictionary = parameters as? [String: Any] else {
                throw NetworkError(.invalidParameters,
                                   "multipart parameters must be a [String: Any] dictionary, not \(type(of: parameters))")
            }
            builder.appendFields(try Parameter.dictionary(from: dictionary))
        }
        do {
            try block?(builder)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError(.invalidRequest, "building the multipart body failed: \(error)", underlyingError: error)
        }
        if let error = builder.firstError { throw error }
        return builder.formData
    }
}
