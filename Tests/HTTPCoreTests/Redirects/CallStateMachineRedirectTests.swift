import Foundation
import HTTPCore
import Testing

/// The redirect loop of the call's state machine on its own: which responses it follows, the
/// hops it counts, what the attempt's result carries, and stops, retries and failures in the
/// middle of a chain. No I/O, no queues, no clock.
@Suite("The call's state machine: redirects")
struct CallStateMachineRedirectTests {
    typealias Machine = CallStateMachine
    typealias Outcome = Result<HTTPResponse, NetworkError>

    static let first = HTTPRequest(url: URL(string: "http://a.test/first")!)
    static let second = HTTPRequest(url: URL(string: "http://a.test/second")!)
    static let third = HTTPRequest(url: URL(string: "http://a.test/third")!)

    static func redirect(_ status: Int = 302, from url: String = "http://a.test/first", to location: String? = "/second",
                         total: TimeInterval = 0.25, connections: Int = 1) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let location { headers["Location"] = location }
        return HTTPResponse(statusCode: status, headers: headers, url: URL(string: url)!,
                            timings: TransferTimings(firstByte: 0.1, total: total, newConnections: connections))
    }

    static let final = HTTPResponse(statusCode: 200, body: Data("ok".utf8), url: URL(string: "http://a.test/third")!,
                                    timings: TransferTimings(firstByte: 0.05, total: 0.5, newConnections: 0))

    static func machine(_ request: HTTPRequest = first, interceptors: Int = 0, cache: Bool = false) -> Machine {
        var machine = Machine(request: request, interceptorCount: interceptors, usesCache: cache, answer: .transport)
        _ = machine.handle(.start)
        if interceptors > 0 { _ = machine.handle(.adapted(request)) }
        return machine
    }

    @Test("301, 302, 303, 307 and 308 with a Location are followed; other 3xx, and none without Location, are results",
          arguments: [300, 301, 302, 303, 304, 305, 307, 308])
    func followedStatuses(status: Int) {
        var machine = Self.machine()
        let response = Self.redirect(status)
        let action = machine.handle(.transferFinished(.success(response)))
        if [301, 302, 303, 307, 308].contains(status) {
            #expect(action == .followRedirect(Self.first, response: response, history: []))
        } else {
            #expect(action == .deliver(.success(response), request: Self.first, isFinal: true))
        }
        var withoutLocation = Self.machine()
        let bare = Self.redirect(status, to: nil)
        #expect(withoutLocation.handle(.transferFinished(.success(bare))) == .deliver(.success(bare), request: Self.first, isFinal: true))
    }

    @Test("a policy of .none delivers the redirect itself")
    func noneDelivers() {
        var request = Self.first
        request.redirectPolicy = .none
        var machine = Self.machine(request)
        let response = Self.redirect()
        #expect(machine.handle(.transferFinished(.success(response))) == .deliver(.success(response), request: request, isFinal: true))
    }

    @Test("each hop is sent; the final response carries the hops and their times")
    func chainOfTwoHops() throws {
        var machine = Self.machine()
        let one = Self.redirect(301, total: 0.25, connections: 1)
        #expect(machine.handle(.transferFinished(.success(one))) == .followRedirect(Self.first, response: one, history: []))
        #expect(machine.handle(.redirectDecided(next: Self.second)) == .startTransfer(Self.second))
        let two = Self.redirect(307, from: "http://a.test/second", to: "/third", total: 0.125, connections: 1)
        let oneRecord = HTTPRedirect(url: URL(string: "http://a.test/first")!, statusCode: 301)
        #expect(machine.handle(.transferFinished(.success(two))) == .followRedirect(Self.second, response: two, history: [oneRecord]))
        #expect(machine.handle(.redirectDecided(next: Self.third)) == .startTransfer(Self.third))
        let action = machine.handle(.transferFinished(.success(Self.final)))
        guard case .deliver(.success(let delivered), _, true) = action else {
            Issue.record("expected the final delivery, got \(action)")
            return
        }
        #expect(delivered.statusCode == 200)
        #expect(delivered.redirects == [oneRecord, HTTPRedirect(url: URL(string: "http://a.test/second")!, statusCode: 307)])
        #expect(delivered.timings.redirectCount == 2)
        #expect(delivered.timings.redirect == 0.375)
        #expect(delivered.timings.total == 0.875)
        #expect(delivered.timings.newConnections == 2)
        #expect(delivered.timings.firstByte == 0.05, "the phases are the final hop's")
    }

    @Test("one hop more than the maximum fails with tooManyRedirects, the last redirect attached")
    func tooManyRedirects() {
        var request = Self.first
        request.redirectPolicy = .follow(maximum: 1)
        var machine = Self.machine(request)
        _ = machine.handle(.transferFinished(.success(Self.redirect())))
        var next = Self.second
        next.redirectPolicy = request.redirectPolicy  // a hop keeps the request's policy
        _ = machine.handle(.redirectDecided(next: next))
        let last = Self.redirect(302, from: "http://a.test/second", to: "/third")
        let action = machine.handle(.transferFinished(.success(last)))
        guard case .deliver(.failure(let error), _, true) = action else {
            Issue.record("expected a failure, got \(action)")
            return
        }
        #expect(error.kind == .tooManyRedirects)
        #expect(error.message.contains("(1)"))
        #expect(error.response?.statusCode == 302)
        #expect(error.response?.redirects.count == 1)
    }

    @Test("a maximum of 0 (or less) follows nothing", arguments: [0, -3])
    func zeroMaximum(maximum: Int) {
        var request = Self.first
        request.redirectPolicy = .follow(maximum: maximum)
        var machine = Self.machine(request)
        let action = machine.handle(.transferFinished(.success(Self.redirect())))
        guard case .deliver(.failure(let error), _, true) = action else {
            Issue.record("expected a failure, got \(action)")
            return
        }
        #expect(error.kind == .tooManyRedirects)
        #expect(error.message.contains("(0)"))
    }

    @Test("a handler's stop delivers the redirect with the hops before it")
    func stopDeliversTheRedirect() {
        var machine = Self.machine()
        _ = machine.handle(.transferFinished(.success(Self.redirect(301))))
        _ = machine.handle(.redirectDecided(next: Self.second))
        let second = Self.redirect(302, from: "http://a.test/second", to: "/third")
        _ = machine.handle(.transferFinished(.success(second)))
        let action = machine.handle(.redirectDecided(next: nil))
        guard case .deliver(.success(let delivered), _, true) = action else {
            Issue.record("expected the redirect delivered, got \(action)")
            return
        }
        #expect(delivered.statusCode == 302)
        #expect(delivered.redirects.map(\.statusCode) == [301])
    }

    @Test("a hop that cannot be made fails the attempt with the transport's error")
    func redirectFailed() {
        var machine = Self.machine()
        _ = machine.handle(.transferFinished(.success(Self.redirect())))
        let error = NetworkError(.unsupportedScheme, "ftp is not followed")
        #expect(machine.handle(.redirectFailed(error)) == .deliver(.failure(error), request: Self.first, isFinal: true))
    }

    @Test("with interceptors each hop is adapted, then sent without the cache step; the retriers see the last hop")
    func interceptorsAdaptEveryHop() {
        var machine = Self.machine(interceptors: 1, cache: true)
        #expect(machine.handle(.networkRequested(Self.first)) == .startTransfer(Self.first))
        _ = machine.handle(.transferFinished(.success(Self.redirect())))
        #expect(machine.handle(.redirectDecided(next: Self.second)) == .runAdapters(Self.second))
        #expect(machine.state == .adapting(isFirstSend: false))
        #expect(machine.handle(.adapted(Self.second)) == .startTransfer(Self.second))
        let action = machine.handle(.transferFinished(.success(Self.final)))
        guard case .askRetriers(let request, .success(let response), _) = action else {
            Issue.record("expected the retriers, got \(action)")
            return
        }
        #expect(request == Self.second)
        #expect(response.redirects.count == 1)
        #expect(machine.handle(.retryDecided(.doNotRetry, by: 0)) == .returnToCache(.success(response)))
    }

    @Test("a retry starts the chain again from the first request, with no hops")
    func retryStartsOver() {
        var machine = Self.machine(interceptors: 1)
        _ = machine.handle(.transferFinished(.success(Self.redirect())))
        _ = machine.handle(.redirectDecided(next: Self.second))
        _ = machine.handle(.adapted(Self.second))
        _ = machine.handle(.transferFinished(.failure(NetworkError(.connectionLost, "lost"))))
        #expect(machine.handle(.retryDecided(.retry(after: 0), by: 0)) == .runAdapters(Self.first))
        #expect(machine.hops.isEmpty)
        _ = machine.handle(.adapted(Self.first))
        let action = machine.handle(.transferFinished(.success(Self.final)))
        guard case .askRetriers(_, .success(let response), _) = action else {
            Issue.record("expected the retriers, got \(action)")
            return
        }
        #expect(response.redirects.isEmpty)
    }

    @Test("a cancel while the next hop is worked out ends the call at once; the late answer is ignored")
    func cancelWhileRedirecting() {
        var machine = Self.machine()
        _ = machine.handle(.transferFinished(.success(Self.redirect())))
        let cancel = NetworkError(.cancelled, "the request was cancelled")
        #expect(machine.handle(.stopped(cancel)) == .deliver(.failure(cancel), request: Self.first, isFinal: true))
        #expect(machine.handle(.redirectDecided(next: Self.second)) == .ignore)
        #expect(machine.handle(.redirectFailed(cancel)) == .ignore)
    }

    @Test("redirect events outside a redirect are ignored")
    func strayEvents() {
        var machine = Self.machine()
        #expect(machine.handle(.redirectDecided(next: Self.second)) == .ignore)
        #expect(machine.handle(.redirectFailed(NetworkError(.invalidResponse, "x"))) == .ignore)
    }
}
