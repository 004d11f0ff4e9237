import Foundation

/// Download tasks: the body goes to a file in constant memory, never into memory, with
/// download progress. Only the status is checked (the response serializer's
/// ``HTTPResponseSerializer/acceptableStatusCodes``); the content type and the envelope are
/// not, as in AFNetworking.
///
/// The body is first written to a temporary file and moved into place only when the download
/// succeeded, so the destination never holds a partial or error body — except with
/// `resumesPartialFile`, which writes straight to the destination so a later call can continue it.
/// An existing file at the destination is replaced.
extension HTTPSessionManager {
    /// Downloads to a file (`downloadTaskWithRequest:` with a fixed destination).
    ///
    /// - Parameters:
    ///   - URLString: resolved against ``baseURL``.
    ///   - method: the method. Default `GET`.
    ///   - parameters: encoded by the request serializer. Default `nil`.
    ///   - headers: set on top of the request serializer's headers. Default `nil`.
    ///   - destination: the file to write; its directory must exist (else
    ///     ``NetworkError/Kind/fileIO`` through `failure`).
    ///   - resumesPartialFile: continue a partial file at `destination` with a `Range` request
    ///     and `If-Range`; a `200` rewrites the file, a complete file succeeds as it is
    ///     (see ``DownloadOptions/resumesPartialFile``). Default `false`.
    ///   - maximumSize: the most bytes written before failing with
    ///     ``NetworkError/Kind/responseTooLarge``. Default `nil` (no limit).
    ///   - progress: download reports. Default `nil`.
    ///   - success: `(task, destination)`. Default `nil`.
    ///   - failure: `(task, error)`. Default `nil`.
    /// - Returns: the running task, or `nil` when the request could not be built.
    @discardableResult
    public func download(_ URLString: String, method: HTTPMethod = .get, parameters: Any? = nil,
                         headers: [String: String]? = nil, to destination: URL, resumesPartialFile: Bool = false,
                         maximumSize: Int64? = nil, progress: ProgressHandler? = nil,
                         success: (@Sendable (SessionTask, URL) -> Void)? = nil,
                         failure: FailureHandler? = nil) -> SessionTask? {
        let configuration = configuration
        let serializer = configuration.responseSerializer
        let download = DownloadPlan(to: destination, resumesPartialFile: resumesPartialFile, maximumSize: maximumSize,
                                    validateStatus: { response throws(NetworkError) in
                                        try serializer.validateStatus(response)
                                    })
        return self.download(URLString, method: method, parameters: parameters, headers: headers, download: download,
                             configuration: configuration, progress: progress, failure: failure) { task, delivery in
            HTTPSessionManager.route(delivery, task: task, success: success, failure: failure)
        }
    }

    /// Downloads to a file chosen once the response is known, AFNetworking's
    /// `downloadTaskWithRequest:progress:destination:completionHandler:`.
    ///
    /// - Parameters:
    ///   - URLString: resolved against ``baseURL``.
    ///   - method: the method. Default `GET`.
    ///   - parameters: encoded by the request serializer. Default `nil`.
    ///   - headers: set on top of the request serializer's headers. Default `nil`.
    ///   - progress: download reports. Default `nil`.
    ///   - destination: `(targetPath, response) -> URL`: given the temporary file (in the
    ///     system's temporary directory) and the response, returns where the file goes; runs on
    ///     the completion queue, after a successful transfer only.
    ///   - completionHandler: `(response, fileURL, error)`, once: the final location on success,
    ///     `nil` and the error on failure (`response` is `nil` when none arrived). Default `nil`.
    /// - Returns: the running task, or `nil` when the request could not be built (the handler
    ///   then gets `(nil, nil, error)`).
    @discardableResult
    public func download(_ URLString: String, method: HTTPMethod = .get, parameters: Any? = nil,
                         headers: [String: String]? = nil, progress: ProgressHandler? = nil,
                         destination: @escaping @Sendable (_ targetPath: URL, _ response: HTTPResponse) -> URL,
                         completionHandler: (@Sendable (HTTPResponse?, URL?, NetworkError?) -> Void)? = nil) -> SessionTask? {
        let configuration = configuration
        let serializer = configuration.responseSerializer
        let download = DownloadPlan(validateStatus: { response throws(NetworkError) in
            try serializer.validateStatus(response)
        }, finalURL: destination)
        return self.download(URLString, method: method, parameters: parameters, headers: headers, download: download,
                             configuration: configuration, progress: progress,
                             failure: { _, error in completionHandler?(error.response, nil, error) }) { _, delivery in
            switch delivery.result {
            case .success(let url): completionHandler?(delivery.response, url, nil)
            case .failure(let error): completionHandler?(delivery.response, nil, error)
            }
        }
    }

    private func download(_ URLString: String, method: HTTPMethod, parameters: Any?, headers: [String: String]?,
                          download: DownloadPlan, configuration: Configuration,
                          progress: ProgressHandler?, failure: FailureHandler?,
                          deliver: @escaping @Sendable (SessionTask, Delivery<URL>) -> Void) -> SessionTask? {
        send(configuration: configuration, method: method, URLString: URLString,
             build: { configuration throws(NetworkError) in
            var request = try makeRequest(method, URLString, parameters: parameters, headers: headers,
                                          configuration: configuration)
            request.download = download.options
            return request
        }, plan: download.plan, progressDirection: .download, progress: progress, failure: failure) { task, delivery in
            download.cleanUp(after: delivery)
            deliver(task, delivery)
        }
    }
}
