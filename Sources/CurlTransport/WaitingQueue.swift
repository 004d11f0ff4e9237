import HTTPCore
/// Requests waiting for a slot under the per-host cap: highest ``RequestPriority`` first, and
/// in arrival order within a priority.
///
/// One first-in-first-out queue per priority, so appending and taking the next are O(1)
/// (amortised) however many wait: an array kept in order cost a search and an insertion per
/// request, and 20,000 waiting requests stalled the loop thread for seconds.
struct WaitingQueue<Element> {
    private var high = FIFO()
    private var normal = FIFO()
    private var low = FIFO()

    /// How many elements wait.
    var count: Int { high.count + normal.count + low.count }

    /// Whether nothing waits.
    var isEmpty: Bool { high.isEmpty && normal.isEmpty && low.isEmpty }

    /// Adds `element` behind every element of its priority and any higher one.
    mutating func append(_ element: Element, priority: RequestPriority) {
        switch priority {
        case .high: high.append(element)
        case .normal: normal.append(element)
        case .low: low.append(element)
        }
    }

    /// Removes and returns the element that starts next, or `nil` when none waits.
    mutating func popFirst() -> Element? {
        high.popFirst() ?? normal.popFirst() ?? low.popFirst()
    }

    /// An array with a moving start: taking the first element clears its slot and advances the
    /// start; the consumed prefix is dropped once it is half the storage, so each element is
    /// moved at most once more.
    private struct FIFO {
        private var storage: [Element?] = []
        private var start = 0

        var count: Int { storage.count - start }
        var isEmpty: Bool { start == storage.count }

        mutating func append(_ element: Element) { storage.append(element) }

        mutating func popFirst() -> Element? {
            guard start < storage.count else { return nil }
            let element = storage[start]
            storage[start] = nil  // the queue must not keep what it handed out alive
            start += 1
            if start == storage.count {
                storage.removeAll(keepingCapacity: true)
                start = 0
            } else if start >= 64, start * 2 >= storage.count {
                storage.removeFirst(start)
                start = 0
            }
            return element
        }
    }
}
