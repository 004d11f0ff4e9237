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
        // Callbacks, not a task: under load the concurrency pool's turns came tens of seconds
        // late, and a batch took two of them.
        nextBatch { [self] batch in deliver(batch, to: queue, onChunk: onChunk, completion: completion) }
    }

    private func deliver(_ batch: ([Data], Result<HTTPResponse, NetworkError>?), to queue: DispatchQueue,
                         onChunk: @escaping @Sendable (Data) -> Void,
                         completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        let (chunks, end) = batch
        queue.async { [self] in
            for chunk in chunks { onChunk(chunk) }
            if !chunks.isEmpty { batchDelivered(chunks) }
            if let end { return completion(end) }
            forward(to: queue, onChunk: onChunk, completion: completion)
        }
    }
}
