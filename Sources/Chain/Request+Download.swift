import Foundation

// The download terminal: the body streams to a file in constant memory instead of into
// memory (Alamofire's `download(_:to:)`). Shares the core's download plan with AFStyle.
extension Request {
    /// Starts the request and writes the body to `destination`.
    ///
    /// The body first goes to a hidden temporary file beside `destination` and is moved into
    /// place (replacing an existing file) only when the download succeeded, so `destination`
    /// never holds a partial or error body — except with `resumesPartialFile`, which writes
    /// straight to `destination` so that a later call can continue it. Only the status is
    /// validated (`validate(_:)`, default `200..<300`); envelopes and content types are not
    /// checked, and the response cache is not used.
    ///
    /// - Parameters:
    ///   - destination: the file to write; its directory must exist (else
    ///     ``NetworkError/Kind/fileIO``).
    ///   - resumesPartialFile: continue a partial file at `destination` with a `Range` request
    ///     (and `If-Range` with the validator the file keeps, so a changed resource is fetched
    ///     whole, never spliced); a server that ignores the range gets the file rewritten from
    ///     the start, and a file that is already complete is a success as it is
    ///     (see ``DownloadOptions/resumesPartialFile``). Default `false`.
    ///   - maximumSize: the most bytes written before failing with
    ///     ``NetworkError/Kind/responseTooLarge``. Default `nil` (no limit).
    ///   - completion: the file's URL, or the error; once. Progress reports go to
    ///     ``progress(_:)``'s closure.
    /// - Returns: the task, to cancel the download.
    @discardableResult
    public func download(to destination: URL, resumesPartialFile: Bool = false, maximumSize: Int64? = nil,
                         completion: @escaping @Sendable (Result<URL, NetworkError>) -> Void) -> HTTPTask {
        downloadDelivery(to: destination, resumesPartialFile: resumesPartialFile, maximumSize: maximumSize) {
            completion($0.result)
        }
    }

    /// ``download(to:resumesPartialFile:maximumSize:completion:)`` delivering everything known:
    /// the file's URL or the error, the response (status, headers, timings) and the request as
    /// sent — Alamofire's `DownloadResponse`.
    @discardableResult
    public func downloadDelivery(to destination: URL, resumesPartialFile: Bool = false, maximumSize: Int64? = nil,
                                 completion: @escaping @Sendable (Delivery<URL>) -> Void) -> HTTPTask {
        let call = prepare()
        let validation = call.validation
        let download = DownloadPlan(to: destination, resumesPartialFile: resumesPartialFile, maximumSize: maximumSize,
                                    validateStatus: { response throws(NetworkError) in
                                        try validation.validateStatus(response)
                                    })
        var options = call.options
        options.cache = nil
        return call.perform(plan: download.plan, options: options, adjust: { $0.download = download.options }) { delivery in
            download.cleanUp(after: delivery)
            completion(delivery)
        }
    }
}
