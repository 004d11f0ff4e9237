import ChainTesting
import Foundation
import Synchronization
import Testing

/// The pipeline's contract with a `TransferResponder` that misbehaves or is interrupted: only
/// the first answer of an attempt counts, a chain proceeds once, and a responder that
/// proceeded hears the transfer's end even when the call was stopped meanwhile.
@Suite("TransferResponder in the pipeline")
struct ResponderPipelineTests {
    private func configuration(_ responder: any TransferResponder, interceptors: [any RequestInterceptor] = []) -> ChainConfiguration {
        var configuration = ChainConfiguration(client: HTTPClient(configuration: .init()), interceptors: interceptors)
        configuration.cookieJar = nil
        configuration.proxy = .none
        configuration.responders = [responder]
        return configuration
    }

    /// Answers each request twice: a 503 at once, then a stray 200 a little later.
    final class AnswersTwice: TransferResponder {
        let calls = Mutex(0)
        func respond(to request: HTTPRequest, chain: TransferChain,
                     completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
            let call = calls.withLock { calls in
                calls += 1
                return calls
            }
            if call == 1 {
                completion(.success(HTTPResponse(statusCode: 503, url: request.url, source: .stub)))
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.05) {
                    completion(.success(HTTPResponse(statusCode: 200, body: Data("stale from call 1".utf8), url: request.url, source: .stub)))
                }
            } else {
                // The retry's own answer comes after the stray one.
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
                    completion(.success(HTTPResponse(statusCode: 200, body: Data("call \(call)".utf8), url: request.url, source: .stub)))
                }
            }
        }
    }

    @Test("a second, late answer is not taken for the retry's")
    func staleAnswerIgnored() async throws {
        let responder = AnswersTwice()
        let api = configuration(responder, interceptors: [RetryPolicy(maximumRetries: 1, baseDelay: 0, usesJitter: false)])
        let text = try await api.url("http://127.0.0.1:9/x").string()
        #expect(text == "call 2")
        #expect(responder.calls.withLock { $0 } == 2)
    }

    /// Proceeds twice with the same request and reports both outcomes.
    final class ProceedsTwice: TransferResponder {
        let second = Mutex<Result<HTTPResponse, NetworkError>?>(nil)
        func respond(to request: HTTPRequest, chain: TransferChain,
                     completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
            chain.proceed(request, completion: completion)
            chain.proceed(request) { [self] result in second.withLock { $0 = result } }
        }
    }

    @Test("a chain proceeds once; the second proceed fails at once and sends nothing")
    func proceedsOnce() async throws {
        let server = try MockServer()
        server.enqueue(.text("once"))
        let responder = ProceedsTwice()
        #expect(try await configuration(responder).url(server.url("/x")).string() == "once")
        let second = try #require(responder.second.withLock { $0 })
        #expect(throws: NetworkError.self) { try second.get() }
        if case .failure(let error) = second { #expect(error.kind == .invalidRequest) }
        #expect(server.requestCount == 1)
    }

    /// Proceeds, and counts the answers it hears back.
    final class Counts: TransferResponder {
        let heard = Mutex<[NetworkError.Kind?]>([])
        let heardBack = DispatchSemaphore(value: 0)
        func respond(to request: HTTPRequest, chain: TransferChain,
                     completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
            chain.proceed(request) { [self] result in
                heard.withLock { heard in
                    if case .failure(let error) = result { heard.append(error.kind) } else { heard.append(nil) }
                }
                heardBack.signal()
                completion(result)
            }
        }
    }

    @Test("cancelled while proceeded: the caller hears cancelled once, the responder hears the end")
    func cancelWhileProceeded() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(options: [.noResponse]))
        let responder = Counts()
        let calls = Mutex(0)
        let api = configuration(responder)
        let error: NetworkError = await withCheckedContinuation { continuation in
            let task = api.url(server.url("/held")).responseData { result in
                calls.withLock { $0 += 1 }
                if case .failure(let error) = result { continuation.resume(returning: error) }
            }
            Task {
                _ = try? await server.takeRequest(timeout: 30)
                task.cancel()
            }
        }
        #expect(error.kind == .cancelled)
        #expect(await offPoolWait(responder.heardBack))
        #expect(responder.heard.withLock { $0 } == [.cancelled])
        #expect(calls.withLock { $0 } == 1)
    }

    @Test("the total timeout while proceeded: timedOut once, the responder hears the end")
    func totalTimeoutWhileProceeded() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(options: [.noResponse]))
        let responder = Counts()
        var api = configuration(responder)
        api.timeouts = Timeouts(total: 0.3)
        let error = await #expect(throws: NetworkError.self) { try await api.url(server.url("/held")).data() }
        #expect(error?.kind == .timedOut)
        #expect(await offPoolWait(responder.heardBack))
        #expect(responder.heard.withLock { $0 }.count == 1)
    }
}

/// Waits for `semaphore` (up to 10 s) on a thread of its own, not the concurrency pool.
private func offPoolWait(_ semaphore: DispatchSemaphore) async -> Bool {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: semaphore.wait(timeout: .now() + 10) == .success) }
    }
}
