import Dispatch
import HTTPCore

extension HTTPClient {
    /// Sends through the pipeline and waits for the one completion. Defaults: the client's
    /// callback queue, no progress.
    public func result(_ request: HTTPRequest, queue: DispatchQueue? = nil,
                       progress: (@Sendable (TransferProgress) -> Void)? = nil) async -> Result<HTTPResponse, NetworkError> {
        await withCheckedContinuation { continuation in
            send(request, queue: queue, progress: progress) { continuation.resume(returning: $0) }
        }
    }
}
