import Foundation

/// Upload tasks (`uploadTaskWithRequest:fromFile:` and `fromData:`): the body is a file
/// streamed from disk or bytes in memory, sent as they are.
///
/// Both report upload progress, check and decode the response with the response serializer
/// (and envelope) and call `success(task, responseObject)` or `failure(task, error)` once.
/// `Content-Type` is `application/octet-stream` unless `headers` or the request serializer set
/// one. Every parameter after the body has the default `nil`; `method` defaults to `POST`.
extension HTTPSessionManager {
    /// Uploads a file, streamed from disk in constant memory. A missing or unreadable file
    /// fails through `failure` with ``NetworkError/Kind/fileIO`` and nothing is sent.
    @discardableResult
    public func upload(_ URLString: String, method: HTTPMethod = .post, headers: [String: String]? = nil,
                       fromFile fileURL: URL, progress: ProgressHandler? = nil, success: SuccessHandler? = nil,
                       failure: FailureHandler? = nil) -> SessionTask? {
        upload(URLString, method: method, headers: headers, body: .file(fileURL), progress: progress,
               success: success, failure: failure)
    }

    /// Uploads bytes held in memory.
    @discardableResult
    public func upload(_ URLString: String, method: HTTPMethod = .post, headers: [String: String]? = nil,
                       from bodyData: Data, progress: ProgressHandler? = nil, success: SuccessHandler? = nil,
                       failure: FailureHandler? = nil) -> SessionTask? {
        upload(URLString, method: method, headers: headers, body: .data(bodyData), progress: progress,
               success: success, failure: failure)
    }

    private func upload(_ URLString: String, method: HTTPMethod, headers: [String: String]?, body: HTTPBody,
                        progress: ProgressHandler?, success: SuccessHandler?, failure: FailureHandler?) -> SessionTask? {
        let configuration = configuration
        return send(configuration: configuration, method: method, URLString: URLString,
                    build: { configuration throws(NetworkError) in
            var request = try makeRequest(method, URLString, parameters: nil, headers: headers, configuration: configuration)
            request.body = body
            if !request.headers.contains("Content-Type") { request.headers["Content-Type"] = "application/octet-stream" }
            return request
        }, plan: HTTPSessionManager.objectPlan(configuration), progressDirection: .upload, progress: progress,
           failure: failure) { task, delivery in
            HTTPSessionManager.route(delivery, task: task, success: success, failure: failure)
        }
    }
}
