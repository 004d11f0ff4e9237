import Foundation

// The counterpart of AFNetworking's data-task did-receive-data block
// (`setDataTaskDidReceiveDataBlock:`), per task: the body handed over as it arrives.
extension HTTPSessionManager {
    /// Sends a request whose body is handed to `didReceiveData` chunk by chunk as it arrives,
    /// instead of being collected: server-sent events, newline-delimited JSON, a long log.
    ///
    /// The request is built as the verbs build it (``HTTPSessionManager/requestSerializer``,
    /// `headers` on top). Only a status the ``HTTPSessionManager/responseSerializer`` accepts
    /// is streamed; any other fails through `failure` with
    /// ``NetworkError/Kind/unacceptableStatus(_:)`` and its (bounded) body, and no chunk. At most
    /// `bufferSize` bytes wait for `didReceiveData` before the transfer pauses. The stream
    /// bypasses the response cache; once a chunk was handed over it is never retried.
    /// `didReceiveData`, then `success` or `failure` (once), run on the
    /// ``HTTPSessionManager/completionQueue``, in order.
    ///
    /// - Parameters:
    ///   - URLString: resolved against ``HTTPSessionManager/baseURL``.
    ///   - method: the HTTP method. Default `GET`.
    ///   - parameters: as for the verbs (the query for `GET`, `HEAD`, `DELETE`). Default `nil`.
    ///   - headers: extra header fields. Default `nil`.
    ///   - bufferSize: bytes that may wait unread. Default 1 MiB.
    ///   - didReceiveData: the task and one chunk of the body.
    ///   - success: the task and the response head (its body empty), after the last chunk. Default `nil`.
    ///   - failure: the task (`nil` when the request could not be built) and the error. Default `nil`.
    /// - Returns: the running task, or `nil` when the request could not be built.
    @discardableResult
    public func streamingDataTask(_ URLString: String, method: HTTPMethod = .get, parameters: Any? = nil,
                                  headers: [String: String]? = nil, bufferSize: Int = 1 << 20,
                                  didReceiveData: @escaping @Sendable (SessionTask, Data) -> Void,
                                  success: (@Sendable (SessionTask, HTTPResponse) -> Void)? = nil,
                                  failure: FailureHandler? = nil) -> SessionTask? {
        let configuration = configuration
        let status = configuration.responseSerializer.statusAcceptance
        let stream = ResponseStream(bufferLimit: bufferSize, acceptance: status)
        let validation = ResponseValidation(status: status, decoding: configuration.jsonDecoding)
        let plan = ResponsePlan<HTTPResponse>(validate: { response throws(NetworkError) in
            try validation.validateStatus(response)
        }, decode: { $0 })
        let task = send(configuration: configuration, method: method, URLString: URLString,
                        build: { configuration throws(NetworkError) in
            var request = try makeRequest(method, URLString, parameters: parameters, headers: headers,
                                          configuration: configuration)
            request.responseStream = stream
            return request
        }, plan: plan, progressDirection: .download, progress: nil, failure: failure) { _, delivery in
            stream.finish(delivery.result)
        }
        guard let task else { return nil }
        stream.forward(to: queue(for: configuration), onChunk: { chunk in didReceiveData(task, chunk) }) { result in
            switch result {
            case .success(let head): success?(task, head)
            case .failure(let error): failure?(task, error)
            }
        }
        return task
    }
}
