import Dispatch

/// A transport that answers every transfer with one error: the transport of a client whose
/// engine could not start, so that each request fails with a clear error instead of crashing.
package struct FailingTransport: Transport {
    /// The error every transfer fails with.
    package let error: NetworkError

    /// Makes a transport that fails every transfer with `error`.
    package init(error: NetworkError) {
        self.error = error
    }

    package func start(_ request: HTTPRequest, task: HTTPTask, queue: DispatchQueue, sharingQueue: DispatchQueue,
                       coalesces: Bool, progress: (@Sendable (TransferProgress) -> Void)?,
                       completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        let error = error
        queue.async { completion(.failure(error)) }
    }

    package func redirectRequest(after response: HTTPResponse, of request: HTTPRequest) throws(NetworkError) -> HTTPRequest {
        var error = error
        error.response = response
        throw error
    }

    package func isCallbackQueue(_ queue: DispatchQueue) -> Bool { false }

    package func makeCallbackQueue(label: String) -> DispatchQueue { DispatchQueue(label: label) }

    package func deliveryEnded() {}

    package func shutDownWhenIdle() {}
}
