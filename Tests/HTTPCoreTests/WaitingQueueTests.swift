@testable import CurlTransport
@testable import HTTPCore
@testable import HTTPFeatures
import TestSupport
import Testing

// The per-host waiting queue's order, without I/O: highest priority first, then arrival order.
@Suite("Waiting queue")
struct WaitingQueueTests {
    @Test func highestPriorityFirstThenArrivalOrder() {
        var queue = WaitingQueue<String>()
        let arrivals: [(String, RequestPriority)] = [("n1", .normal), ("l1", .low), ("h1", .high), ("n2", .normal),
                                                     ("h2", .high), ("l2", .low), ("n3", .normal)]
        for (name, priority) in arrivals { queue.append(name, priority: priority) }
        #expect(queue.count == arrivals.count)
        var taken: [String] = []
        while let next = queue.popFirst() { taken.append(next) }
        #expect(taken == ["h1", "h2", "n1", "n2", "n3", "l1", "l2"])
        #expect(queue.isEmpty)
        #expect(queue.popFirst() == nil)
    }

    /// Random appends and takes, checked against a plain list kept sorted (stable) by priority.
    @Test func interleavedAppendsAndTakesMatchASortedList() {
        var generator = SplitMix64(seed: 21)
        var queue = WaitingQueue<Int>()
        var model: [(value: Int, priority: RequestPriority)] = []
        for value in 0..<20_000 {
            if model.isEmpty || generator.chance(0.6) {
                let priority = generator.pick([RequestPriority.low, .normal, .high])
                queue.append(value, priority: priority)
                let index = model.firstIndex { $0.priority < priority } ?? model.endIndex
                model.insert((value, priority), at: index)
            } else {
                #expect(queue.popFirst() == model.removeFirst().value)
            }
            #expect(queue.count == model.count)
        }
        while let next = queue.popFirst() { #expect(next == model.removeFirst().value) }
        #expect(model.isEmpty)
    }
}
