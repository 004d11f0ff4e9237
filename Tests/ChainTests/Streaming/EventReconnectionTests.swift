import Chain
import Foundation
import Testing

/// The reconnection policy as a pure function: the server's `retry`, the backoff, the caps, and
/// numbers from a hostile server or a careless caller.
@Suite("Event reconnection policy")
struct EventReconnectionTests {
    @Test func theServersRetryThenDoublingUpToTheCap() {
        let policy = EventReconnection.automatic
        #expect(policy.delay(attempt: 1, serverRetry: nil) == 3)
        #expect(policy.delay(attempt: 2, serverRetry: nil) == 6)
        #expect(policy.delay(attempt: 1, serverRetry: 250) == 0.25)
        #expect(policy.delay(attempt: 3, serverRetry: 250) == 1)
        #expect(policy.delay(attempt: 10, serverRetry: nil) == 30)
    }

    @Test func hostileAndCarelessNumbersNeverTrap() {
        let policy = EventReconnection.automatic
        #expect(policy.delay(attempt: 1, serverRetry: Int.max) == 30, "a server's retry is capped too")
        #expect(policy.delay(attempt: Int.max, serverRetry: nil) == 30)
        #expect(policy.delay(attempt: Int.min, serverRetry: 0) == EventReconnection.shortestDelay, "retry: 0 is no busy loop")
        #expect(policy.delay(attempt: 3, serverRetry: -20) == EventReconnection.shortestDelay)
        #expect(EventReconnection(initialDelay: -5).delay(attempt: 1, serverRetry: nil) == EventReconnection.shortestDelay)
        #expect(EventReconnection(initialDelay: .nan).delay(attempt: 1, serverRetry: nil) == 3)
        #expect(EventReconnection(initialDelay: .infinity, maximumDelay: .infinity).delay(attempt: 5, serverRetry: nil) == 24 * 3600)
        #expect(EventReconnection(maximumDelay: -1).delay(attempt: 1, serverRetry: nil) == EventReconnection.shortestDelay)
    }

    @Test func attemptsAllowed() {
        #expect(!EventReconnection.never.allows(attempt: 1))
        #expect(EventReconnection.automatic.allows(attempt: 1_000_000))
        let limited = EventReconnection(maximumAttempts: 2)
        #expect(limited.allows(attempt: 2))
        #expect(!limited.allows(attempt: 3))
    }
}
