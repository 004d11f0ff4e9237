import Dispatch
import Foundation
import HTTPCore

extension StubTable: TransferResponder {
    /// Answers `request` from the newest route that matches it, or applies the unmatched policy.
    public func respond(to request: HTTPRequest, chain: TransferChain,
                        completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        let method = request.method.rawValue
        let url = request.url.absoluteString
        guard let (route, stubRequest) = route(for: request) else {
            guard unmatchedPolicy == .fail else { return chain.proceed(request, completion: completion) }
            let error = StubTableError.unmatched(method: method, url: url)
            return answer(.failure(NetworkError(.invalidRequest, "\(error) (StubTable, unmatched policy .fail; \(routeList))",
                                                underlyingError: error)), after: 0, completion)
        }
        let mock: MockResponse
        do {
            guard let answer = try route.respond(to: stubRequest) else {
                let error = StubTableError.noResponses(method: method, url: url)
                return answer(.failure(NetworkError(.invalidRequest, error.description, underlyingError: error)), after: 0, completion)
            }
            mock = answer
        } catch {
            let failure = StubTableError.handlerFailed(method: method, url: url, reason: String(describing: error))
            return answer(.failure(NetworkError(.invalidRequest, failure.description, underlyingError: failure)),
                          after: 0, completion)
        }
        let (result, wait) = Self.outcome(of: mock, for: request)
        answer(result, after: wait, completion)
    }

    /// The routes, newest first, for an unmatched request's message.
    private var routeList: String {
        let routes = routes
        guard !routes.isEmpty else { return "the table has no routes" }
        let shown = routes.reversed().prefix(10).map(\.description).joined(separator: "; ")
        return "routes: " + shown + (routes.count > 10 ? "; … \(routes.count - 10) more" : "")
    }

    /// Always asynchronously, as a transfer answers.
    private func answer(_ result: Result<HTTPResponse, NetworkError>, after seconds: TimeInterval,
                        _ completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { completion(result) }
    }

    /// What a client would get from a server answering `mock`, and after how long. The
    /// request's idle timeout applies as a client applies it to a silent server: a delay as
    /// long as it, or no response at all, ends in ``NetworkError/Kind/timedOut`` when it
    /// passes (a throttled body keeps the connection busy, so it does not).
    static func outcome(of mock: MockResponse, for request: HTTPRequest) -> (Result<HTTPResponse, NetworkError>, TimeInterval) {
        let url = request.url.absoluteString
        if let invalidity = mock.invalidity {
            return (.failure(NetworkError(.invalidRequest, "the MockResponse for \(request.method) \(url) cannot be sent: \(invalidity)")), 0)
        }
        let sendsBody = mock.sendsBody(toMethod: request.method.rawValue)
        let idle = request.timeouts.idle.isFinite && request.timeouts.idle > 0 ? min(request.timeouts.idle, 1e9) : nil
        let silence = mock.fault == .noResponse ? 1e9 : mock.delaySeconds
        if let idle, silence >= idle {
            return (.failure(NetworkError(.timedOut, "no answer to \(request.method) \(url) within the idle timeout of "
                                              + "\(idle) s (stub \(mock.fault == .noResponse ? "fault .noResponse" : "delay"))")), idle)
        }
        var wait = silence
        if let rate = mock.bytesPerSecond, sendsBody { wait += Double(mock.body.count) / Double(rate) }
        switch mock.fault {
        case .disconnectAfterRequest?:
            return (.failure(NetworkError(.connectionLost, "the server closed the connection without answering "
                                              + "\(request.method) \(url) (stub fault .disconnectAfterRequest)")), wait)
        case .disconnectDuringBody? where sendsBody:
            let length = mock.truncatableBody.count
            return (.failure(NetworkError(.truncatedResponse, "the connection closed after \(length / 2) of \(length) bytes "
                                              + "of \(request.method) \(url) (stub fault .disconnectDuringBody)")), wait)
        case .noResponse?:
            // No idle timeout: only a cancel or the total timeout ends the call (the pipeline
            // cuts the wait to its longest).
            return (.failure(NetworkError(.timedOut, "no answer to \(request.method) \(url)")), wait)
        default:
            // A body fault on an answer without a body (HEAD, 204) leaves a complete head.
            let response = HTTPResponse(statusCode: mock.status, headers: mock.headers, body: sendsBody ? mock.body : Data(),
                                        url: request.url, httpVersion: .unknown, source: .stub)
            return (.success(response), wait)
        }
    }
}
