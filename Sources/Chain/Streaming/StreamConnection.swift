import Dispatch
import Foundation

/// One call whose response body streams: the pipeline call (hooks, interceptors, redirects,
/// validation before the first chunk) and the ``ResponseStream`` its body goes to.
///
/// A stream bypasses the response cache and in-flight coalescing (each consumer needs its own
/// bytes), and the in-memory size limit (its buffer bounds it). The request's total timeout is
/// off unless set, as for every request; the idle timeout applies between bytes.
struct StreamConnection: Sendable {
    let stream: ResponseStream
    let task: HTTPTask
    /// The hooks of the call and its callback queue, for the events the stream reports itself.
    let hooks: [any HTTPHook]
    let queue: DispatchQueue

    /// Starts `request` with its body streamed into a buffer of `bufferSize` bytes.
    /// - Parameter adjust: changes the built request before it is sent (a `Last-Event-ID`).
    static func start(_ request: Request, bufferSize: Int, adjust: @escaping (inout HTTPRequest) -> Void = { _ in })
        -> StreamConnection {
        let call = request.prepare()
        let validation = call.validation
        let stream = ResponseStream(bufferLimit: bufferSize, acceptance: validation.status)
        var options = call.options
        options.cache = nil
        options.coalescesIdenticalRequests = false
        // Only the status is checked: an envelope describes a whole body, which a stream never has.
        let plan = ResponsePlan<HTTPResponse>(validate: { response throws(NetworkError) in
            try validation.validateStatus(response)
        }, decode: { $0 })
        let task = call.perform(plan: plan, options: options, adjust: { built in
            built.responseStream = stream
            adjust(&built)
        }, deliver: { delivery in
            stream.finish(delivery.result)
        })
        let hooks = (options.usesGlobalHooks ? Hooks.shared.all : []) + options.hooks
        return StreamConnection(stream: stream, task: task, hooks: hooks,
                                queue: options.queue ?? call.client.callbackQueue)
    }

    /// The next chunk, `nil` at the end of a successful response; cancelling the Swift task
    /// cancels the call.
    /// - Throws: the call's ``NetworkError``.
    func next() async throws(NetworkError) -> Data? {
        let element = await withTaskCancellationHandler {
            await stream.next()
        } onCancel: {
            task.cancel()
        }
        switch element {
        case .chunk(let chunk): return chunk
        case .end(.success): return nil
        case .end(.failure(let error)): throw error
        }
    }

    /// The response head once it arrived.
    /// - Throws: the call's ``NetworkError`` when it failed before a response was accepted.
    func head() async throws(NetworkError) -> HTTPResponse {
        let result = await withTaskCancellationHandler {
            await stream.head()
        } onCancel: {
            task.cancel()
        }
        return try result.get()
    }
}
