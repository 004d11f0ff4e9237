import Dispatch
import Foundation
import HTTPCore

// The one completion: posted from the loop thread, delivered on the callback queue.

extension CurlTransfer {
    /// Delivers the result on the callback queue, once. Later calls are ignored.
    func complete(with result: Result<HTTPResponse, NetworkError>) {
        guard let block = completionBlock(for: result) else { return }
        callbackQueue.async(execute: block)
    }

    /// The block that delivers the result on ``callbackQueue``, counted as posted; `nil` when
    /// the transfer already finished. The caller must run it on ``callbackQueue`` (the engine
    /// batches the blocks of one loop pass that share a queue).
    func completionBlock(for result: Result<HTTPResponse, NetworkError>) -> (@Sendable () -> Void)? {
        guard !isFinished else { return nil }
        isFinished = true
        didFinish?()
        outcome = result
        scheduler.completionPosted()
        // A block that captures only the transfer has the transfer itself as its context, so
        // the loop thread allocates no box for the callback thread to free (see
        // `typicalBodyCapacity` for why that matters).
        return { [self] in deliver() }
    }

    /// Runs the completion (and the closing progress reports) on the callback queue, then drops
    /// the response's buffers here rather than on the loop thread.
    private func deliver() {
        scheduler.completionStarted()
        // `outcome` is set before the block is posted; the fallback keeps the completion
        // called exactly once even if that ever changed.
        let result = outcome ?? .failure(NetworkError(.transport, "the transfer ended without a result"))
        if let progressHandler {
            for progress in finalReports { progressHandler(progress) }
        }
        let recordedHead = head.bytes
        outcome = nil
        head = CurlResponseHeadRecorder()
        body = Data()
        finalReports = []
        completion(CurlTransfer.withHeaders(recordedHead, in: result))
    }

    /// `result` with the fields of `recordedHead` on its response — the success's, or the
    /// one a failure carries. Every response a transfer builds comes from its recorded head
    /// (``partialResponse()``), which the loop thread leaves unparsed.
    private static func withHeaders(_ recordedHead: [UInt8],
                                    in result: Result<HTTPResponse, NetworkError>) -> Result<HTTPResponse, NetworkError> {
        guard !recordedHead.isEmpty else { return result }
        switch result {
        case .success(var response):
            response.headers = CurlResponseHeadRecorder.headers(in: recordedHead)
            return .success(response)
        case .failure(var error):
            guard error.response != nil else { return result }
            error.response?.headers = CurlResponseHeadRecorder.headers(in: recordedHead)
            return .failure(error)
        }
    }
}
