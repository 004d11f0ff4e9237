import Foundation
import HTTPCore
import Testing

/// The call's state machine on its own: every transition, a cancel and the total timeout in
/// every state, and events after the end. No I/O, no queues, no clock.
@Suite("The call's state machine")
struct CallStateMachineTests {
    typealias Machine = CallStateMachine
    typealias Outcome = Result<HTTPResponse, NetworkError>

    static let original = HTTPRequest(url: URL(fileURLWithPath: "/original"))
    static let adapted = HTTPRequest(url: URL(fileURLWithPath: "/adapted"))
    static let readapted = HTTPRequest(url: URL(fileURLWithPath: "/readapted"))
    static let ok: Outcome = .success(HTTPResponse(statusCode: 200, headers: HTTPHeaders(), body: Data("ok".utf8),
                                                   url: URL(fileURLWithPath: "/adapted"), httpVersion: .http1_1))
    static let stored: Outcome = .success(HTTPResponse(statusCode: 200, headers: HTTPHeaders(), body: Data("stored".utf8),
                                                       url: URL(fileURLWithPath: "/adapted"), httpVersion: .http1_1,
                                                       source: .cache))
    static let lost: Outcome = .failure(NetworkError(.connectionLost, "lost"))
    static let cancelledTransfer: Outcome = .failure(NetworkError(.cancelled, "the request was cancelled"))
    static let cancel = NetworkError(.cancelled, "the request was cancelled")
    static let timeout = NetworkError(.timedOut, "the call did not finish within its total timeout of 1.0 s")

    static func machine(interceptors: Int = 0, cache: Bool = false, answer: Machine.Answer = .transport) -> Machine {
        Machine(request: original, interceptorCount: interceptors, usesCache: cache, answer: answer)
    }

    static func finalDelivery(_ result: Outcome, _ request: HTTPRequest = adapted) -> Machine.Action {
        .deliver(result, request: request, isFinal: true)
    }

    /// Every state, reached through events, with the machine's settings that lead there.
    enum Reached: String, CaseIterable, CustomTestStringConvertible {
        case idle, adapting, cacheStep, transferring, stubbing, askingRetriers, waitingToRetry, readapting,
             handedToCache, finished
        var testDescription: String { rawValue }

        func make() -> Machine {
            var machine: Machine
            switch self {
            case .idle:
                return CallStateMachineTests.machine()
            case .adapting:
                machine = CallStateMachineTests.machine(interceptors: 1)
                _ = machine.handle(.start)
            case .cacheStep:
                machine = CallStateMachineTests.machine(cache: true)
                _ = machine.handle(.start)
            case .transferring:
                machine = CallStateMachineTests.machine()
                _ = machine.handle(.start)
            case .stubbing:
                machine = CallStateMachineTests.machine(answer: .stub)
                _ = machine.handle(.start)
            case .askingRetriers, .waitingToRetry, .readapting:
                machine = CallStateMachineTests.machine(interceptors: 1)
                _ = machine.handle(.start)
                _ = machine.handle(.adapted(adapted))
                _ = machine.handle(.transferFinished(lost))
                if self == .waitingToRetry { _ = machine.handle(.retryDecided(.retry(after: 1), by: 0)) }
                if self == .readapting { _ = machine.handle(.retryDecided(.retry(after: 0), by: 0)) }
            case .handedToCache:
                machine = CallStateMachineTests.machine(cache: true)
                _ = machine.handle(.start)
                _ = machine.handle(.networkRequested(adapted))
                _ = machine.handle(.transferFinished(ok))
            case .finished:
                machine = CallStateMachineTests.machine()
                _ = machine.handle(.start)
                _ = machine.handle(.transferFinished(ok))
            }
            return machine
        }

        var expectedState: Machine.State {
            switch self {
            case .idle: .idle
            case .adapting: .adapting(isFirstSend: true)
            case .cacheStep: .cacheStep
            case .transferring: .transferring(original)
            case .stubbing: .stubbing(original)
            case .askingRetriers: .askingRetriers(adapted, lost)
            case .waitingToRetry: .waitingToRetry
            case .readapting: .adapting(isFirstSend: false)
            case .handedToCache: .handedToCache
            case .finished: .finished
            }
        }
    }

    // MARK: The path of a call

    @Test("start: without interceptors or cache the transfer starts at once")
    func startTransfers() {
        var machine = Self.machine()
        #expect(machine.handle(.start) == .startTransfer(Self.original))
        #expect(machine.state == .transferring(Self.original))
        #expect(machine.handle(.transferFinished(Self.ok)) == Self.finalDelivery(Self.ok, Self.original))
        #expect(machine.state == .finished)
    }

    @Test("start: interceptors adapt first; the adapted request is sent and delivered")
    func startAdapts() {
        var machine = Self.machine(interceptors: 2)
        #expect(machine.handle(.start) == .runAdapters(Self.original))
        #expect(machine.state == .adapting(isFirstSend: true))
        #expect(machine.handle(.adapted(Self.adapted)) == .startTransfer(Self.adapted))
        #expect(machine.handle(.transferFinished(Self.ok)) == .askRetriers(Self.adapted, result: Self.ok, attempts: AttemptContext()))
        #expect(machine.handle(.retryDecided(.doNotRetry, by: 2)) == Self.finalDelivery(Self.ok))
    }

    @Test("a failed adaptation delivers its error with the original request")
    func adaptFails() {
        var machine = Self.machine(interceptors: 1)
        _ = machine.handle(.start)
        let error = NetworkError(.invalidRequest, "no token")
        #expect(machine.handle(.adaptFailed(error)) == Self.finalDelivery(.failure(error), Self.original))
        #expect(machine.state == .finished)
    }

    @Test("a stub answers the transfer step")
    func stubAnswers() {
        var machine = Self.machine(answer: .stub)
        #expect(machine.handle(.start) == .answerFromStub(Self.original))
        #expect(machine.handle(.transferFinished(Self.ok)) == Self.finalDelivery(Self.ok, Self.original))
    }

    @Test("a request that could not be built is delivered at start, and nothing else runs")
    func unbuildable() {
        let error = NetworkError(.invalidRequest, "bad URL")
        var machine = Self.machine(interceptors: 2, cache: true, answer: .unbuildable(error))
        #expect(machine.handle(.start) == Self.finalDelivery(.failure(error), Self.original))
        #expect(machine.state == .finished)
        #expect(machine.handle(.adapted(Self.adapted)) == .ignore)
        #expect(machine.handle(.stopped(Self.cancel)) == .ignore)
    }

    @Test("retry: after a delay, the original request is adapted again; the deliveries keep the first adaptation")
    func retryWithDelay() {
        var machine = Self.machine(interceptors: 2)
        _ = machine.handle(.start)
        _ = machine.handle(.adapted(Self.adapted))
        _ = machine.handle(.transferFinished(Self.lost))
        #expect(machine.handle(.retryDecided(.retry(after: 2), by: 1)) == .scheduleRetry(after: 2))
        #expect(machine.state == .waitingToRetry)
        #expect(machine.handle(.retryTimerFired) == .runAdapters(Self.original))
        #expect(machine.state == .adapting(isFirstSend: false))
        #expect(machine.handle(.adapted(Self.readapted)) == .startTransfer(Self.readapted))
        var attempts = AttemptContext()
        attempts.attempt = 2
        attempts.totalDelay = 2
        attempts.retries = [0, 1]
        #expect(machine.handle(.transferFinished(Self.ok)) == .askRetriers(Self.readapted, result: Self.ok, attempts: attempts))
        #expect(machine.attempts.retryContext(for: 1) == RetryContext(attempt: 2, totalDelay: 2, retriesRequested: 1))
        #expect(machine.handle(.retryDecided(.doNotRetry, by: 2)) == Self.finalDelivery(Self.ok))
    }

    @Test("retry: zero, negative and NaN delays retry at once; a huge one is cut to the longest wait",
          arguments: [0, -1, Double.nan, 1e12])
    func retryDelays(delay: Double) {
        var machine = Self.machine(interceptors: 1)
        _ = machine.handle(.start)
        _ = machine.handle(.adapted(Self.adapted))
        _ = machine.handle(.transferFinished(Self.lost))
        let action = machine.handle(.retryDecided(.retry(after: delay), by: 0))
        if delay > 1e9 {
            #expect(action == .scheduleRetry(after: Machine.longestWait))
        } else {
            #expect(action == .runAdapters(Self.original))
            #expect(machine.attempts.totalDelay == 0)
        }
    }

    @Test("retry: an interceptor's .fail delivers its error; a failed re-adaptation too")
    func retryFails() {
        let error = NetworkError(.transport, "refresh failed")
        var machine = Self.machine(interceptors: 1)
        _ = machine.handle(.start)
        _ = machine.handle(.adapted(Self.adapted))
        _ = machine.handle(.transferFinished(Self.lost))
        #expect(machine.handle(.retryDecided(.fail(error), by: 0)) == Self.finalDelivery(.failure(error)))

        var again = Self.machine(interceptors: 1)
        _ = again.handle(.start)
        _ = again.handle(.adapted(Self.adapted))
        _ = again.handle(.transferFinished(Self.lost))
        _ = again.handle(.retryDecided(.retry(after: 0), by: 0))
        #expect(again.handle(.adaptFailed(error)) == Self.finalDelivery(.failure(error)))
    }

    @Test("a cancelled transfer is never offered to the retriers")
    func cancelledNotRetried() {
        var machine = Self.machine(interceptors: 1)
        _ = machine.handle(.start)
        _ = machine.handle(.adapted(Self.adapted))
        #expect(machine.handle(.transferFinished(Self.cancelledTransfer)) == Self.finalDelivery(Self.cancelledTransfer))
    }

    @Test("cache: the step runs after adaptation, asks for the network, gets its result back and delivers")
    func cacheStep() {
        var machine = Self.machine(interceptors: 1, cache: true)
        _ = machine.handle(.start)
        #expect(machine.handle(.adapted(Self.adapted)) == .runCacheStep(Self.adapted))
        #expect(machine.state == .cacheStep)
        #expect(machine.handle(.networkRequested(Self.adapted)) == .startTransfer(Self.adapted))
        #expect(machine.handle(.networkRequested(Self.adapted)) == .ignore, "one network request per call")
        _ = machine.handle(.transferFinished(Self.ok))
        #expect(machine.handle(.retryDecided(.doNotRetry, by: 1)) == .returnToCache(Self.ok))
        #expect(machine.state == .handedToCache)
        #expect(machine.handle(.cacheDelivered(Self.ok, isFinal: true)) == Self.finalDelivery(Self.ok))
        #expect(machine.state == .finished)
    }

    @Test("cache: a .fileFirst hit delivers the stored copy, then the network's result")
    func cacheFileFirst() {
        var machine = Self.machine(cache: true)
        _ = machine.handle(.start)
        #expect(machine.handle(.cacheDelivered(Self.stored, isFinal: false))
                == .deliver(Self.stored, request: Self.original, isFinal: false))
        #expect(machine.state == .cacheStep)
        _ = machine.handle(.networkRequested(Self.original))
        #expect(machine.handle(.transferFinished(Self.ok)) == .returnToCache(Self.ok))
        #expect(machine.handle(.cacheDelivered(Self.ok, isFinal: true)) == Self.finalDelivery(Self.ok, Self.original))
    }

    @Test("cache: a hit without the network ends the call from the lookup")
    func cacheHit() {
        var machine = Self.machine(cache: true)
        _ = machine.handle(.start)
        #expect(machine.handle(.cacheDelivered(Self.stored, isFinal: true)) == Self.finalDelivery(Self.stored, Self.original))
    }

    // MARK: Cancel and the total timeout

    @Test("a cancel and the total timeout are handled in every state",
          arguments: Reached.allCases, [cancel, timeout])
    func stopInEveryState(reached: Reached, error: NetworkError) {
        var machine = reached.make()
        #expect(machine.state == reached.expectedState)
        let action = machine.handle(.stopped(error))
        switch reached {
        case .finished:
            #expect(action == .ignore)
        case .transferring:
            // The transport's own cancel ends the transfer; its result carries the error.
            #expect(action == .cancelTransfer)
            #expect(machine.state == .transferring(Self.original))
            #expect(machine.handle(.transferFinished(Self.cancelledTransfer)) == Self.finalDelivery(.failure(error), Self.original))
        case .idle, .adapting:
            #expect(action == Self.finalDelivery(.failure(error), Self.original))
        case .cacheStep, .stubbing, .handedToCache:
            #expect(action == Self.finalDelivery(.failure(error), Self.original))
        case .askingRetriers, .waitingToRetry, .readapting:
            #expect(action == Self.finalDelivery(.failure(error)))
        }
        #expect(machine.state == .finished)
        #expect(machine.handle(.stopped(error)) == .ignore, "a second stop does nothing")
    }

    @Test("a stop during a transfer with retriers delivers without asking them")
    func stopSkipsRetriers() {
        var machine = Self.machine(interceptors: 1)
        _ = machine.handle(.start)
        _ = machine.handle(.adapted(Self.adapted))
        #expect(machine.handle(.stopped(Self.timeout)) == .cancelTransfer)
        #expect(machine.handle(.transferFinished(Self.cancelledTransfer)) == Self.finalDelivery(.failure(Self.timeout)))
    }

    @Test("a stop during the cache's lookup answers a later network request with the error")
    func stopDuringLookup() {
        var machine = Self.machine(cache: true)
        _ = machine.handle(.start)
        #expect(machine.handle(.stopped(Self.cancel)) == Self.finalDelivery(.failure(Self.cancel), Self.original))
        #expect(machine.handle(.networkRequested(Self.original)) == .returnToCache(.failure(Self.cancel)))
        #expect(machine.handle(.cacheDelivered(.failure(Self.cancel), isFinal: true)) == .ignore)
    }

    // MARK: Events that do not apply

    static let everyEvent: [Machine.Event] = [
        .start, .adapted(adapted), .adaptFailed(NetworkError(.invalidRequest, "x")), .networkRequested(adapted),
        .transferFinished(ok), .retryDecided(.retry(after: 1), by: 0), .retryTimerFired,
        .cacheDelivered(ok, isFinal: true), .cacheDelivered(stored, isFinal: false), .stopped(cancel),
    ]

    @Test("after the final delivery every event is ignored (the callback runs exactly once); a cache step's network request is answered")
    func lateEvents() {
        var machine = Reached.finished.make()
        for event in Self.everyEvent {
            if case .networkRequested = event {
                #expect(machine.handle(event) == .returnToCache(.failure(Self.cancel)))
            } else {
                #expect(machine.handle(event) == .ignore)
            }
        }
        #expect(machine.state == .finished)
    }

    @Test("a sequence with duplicated and stray answers makes one final delivery")
    func exactlyOnce() {
        var machine = Self.machine(interceptors: 1)
        var actions = [machine.handle(.start)]
        for event: Machine.Event in [.adapted(Self.adapted), .adapted(Self.adapted), .retryTimerFired,
                                     .transferFinished(Self.lost), .transferFinished(Self.ok),
                                     .retryDecided(.doNotRetry, by: 1), .retryDecided(.doNotRetry, by: 1),
                                     .stopped(Self.cancel), .transferFinished(Self.ok)] {
            actions.append(machine.handle(event))
        }
        let finals = actions.filter { if case .deliver(_, _, true) = $0 { true } else { false } }
        #expect(finals == [Self.finalDelivery(Self.lost)])
    }

    @Test("events a state does not expect are ignored and leave it as it is", arguments: Reached.allCases)
    func strayEvents(reached: Reached) {
        for (index, event) in Self.everyEvent.enumerated() where !Self.applies(event, to: reached) {
            var machine = reached.make()
            #expect(machine.handle(event) == .ignore, "event \(index) in \(reached)")
            #expect(machine.state == reached.expectedState)
        }
    }

    /// Whether `event` moves a machine in `reached` on (the transitions tested above).
    static func applies(_ event: Machine.Event, to reached: Reached) -> Bool {
        switch (event, reached) {
        case (.start, .idle): true
        case (.adapted, .adapting), (.adaptFailed, .adapting), (.adapted, .readapting), (.adaptFailed, .readapting): true
        case (.networkRequested, .cacheStep), (.networkRequested, .finished), (.cacheDelivered, .cacheStep), (.cacheDelivered, .handedToCache): true
        case (.transferFinished, .transferring), (.transferFinished, .stubbing): true
        case (.retryDecided, .askingRetriers), (.retryTimerFired, .waitingToRetry): true
        case (.stopped, let state): state != .finished
        default: false
        }
    }
}
