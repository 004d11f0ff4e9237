import Dispatch
import Foundation

// The callback forms of both front ends: chunks handed to a closure on a callback queue.

extension ResponseStream {
    /// Hands every chunk to `onChunk` on `queue`, in order, then the end to `completion`, once.
    /// One queue hop per batch of waiting chunks, and the next batch waits for that block to
    /// finish: a slow `onChunk` pauses the transfer (the buffer fills) instead of filling the
    /// queue, and the order holds on a concurrent queue too.
    package func forward(to queue: DispatchQueue, onChunk: @escaping @Sendable (Data) -> Void,
                         completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        Task.detached { [self] in
            while true {
                let (chunks, end) = await nextBatch()
                if !chunks.isEmpty {
                    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                        queue.async {
                            for chunk in chunks { onChunk(chunk) }
                            done.resume()
                        }
                    }
                    batchDelivered(chunks)
                }
                if let end {
                    queue.async { completion(end) }
                    return
                }
            }
        }
    }
}
