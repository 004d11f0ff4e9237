import Dispatch

extension DeliveryScheduler {
    /// Completion blocks of one loop pass bound for one serial queue, queued as one block: with
    /// many transfers in flight a pass often finishes several, and each `DispatchQueue.async`
    /// costs an allocation, a block copy and, when the queue's thread is parked, a wakeup.
    /// Only for queues ``DeliveryScheduler/isCallbackQueue(_:)`` accepts: a queue the caller
    /// supplied may be concurrent. The first block is kept on its own so that the common
    /// pass — one completion — never allocates an array.
    struct CompletionBatch {
        private var queue: DispatchQueue?
        private var first: (@Sendable () -> Void)?
        private var more: [@Sendable () -> Void] = []

        /// Adds a block; a block for another queue first sends what was collected.
        mutating func add(_ block: @escaping @Sendable () -> Void, on queue: DispatchQueue) {
            if let current = self.queue, current !== queue { flush() }
            self.queue = queue
            if first == nil { first = block } else { more.append(block) }
        }

        /// Queues what was collected: the block itself when there is one, else one block running them in order.
        mutating func flush() {
            guard let queue, let first else { return }
            if more.isEmpty {
                queue.async(execute: first)
            } else {
                let more = self.more
                queue.async {
                    first()
                    for block in more { block() }
                }
            }
            self.queue = nil
            self.first = nil
            more = []
        }
    }
}
