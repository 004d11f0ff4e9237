import Dispatch
import Foundation

/// The one path every call takes: build the request from a snapshot of the settings, hand it
/// to the core pipeline with origin `"AFStyle"`, and map deliveries to `success`/`failure`.
extension HTTPSessionManager {
    /// Sends a request built by `build`, or fails through `failure` (with no task, as
    /// AFNetworking does when serialization fails) and returns `nil` when it cannot be built.
    func send<Value>(configuration: Configuration,
                     build: (Configuration) throws(NetworkError) -> HTTPRequest,
                     plan: ResponsePlan<Value>,
                     cache: (any CacheStep)? = nil,
                     progressDirection: TransferProgress.Direction,
                     progress: (@Sendable (TransferProgress) -> Void)?,
                     failure: FailureHandler?,
                     deliver: @escaping @Sendable (SessionTask, Delivery<Value>) -> Void) -> SessionTask? {
        let queue = queue(for: configuration)
        var request: HTTPRequest
        do {
            request = try build(configuration)
        } catch {
            // Asynchronous like every other outcome, so callers never see a callback before the call returns.
            queue.async { failure?(nil, error) }
            return nil
        }
        request.tls = configuration.tls
        let task = SessionTask(originalRequest: request, progressDirection: progressDirection)
        register(task)
        let options = CallOptions(queue: queue, progress: { report in
            task.record(report)
            if report.direction == progressDirection { progress?(report) }
        }, cache: cache, interceptors: configuration.interceptors, origin: "AFStyle")
        let coreTask = client.perform(request, plan: plan, options: options) { [self] delivery in
            task.record(response: delivery.response, request: delivery.request, error: delivery.error,
                        isFinal: delivery.isFinal)
            if delivery.isFinal { unregister(task) }
            deliver(task, delivery)
        }
        task.attach(coreTask)
        return task
    }

    /// Calls `success` or `failure` for one delivery.
    static func route<Value>(_ delivery: Delivery<Value>, task: SessionTask,
                             success: (@Sendable (SessionTask, Value) -> Void)?, failure: FailureHandler?) {
        switch delivery.result {
        case .success(let value): success?(task, value)
        case .failure(let error): failure?(task, error)
        }
    }

    /// The direction a verb's `progress` closure follows, as in AFNetworking: the upload for
    /// methods that carry a body, the download for the others.
    static func progressDirection(for method: HTTPMethod) -> TransferProgress.Direction {
        method == .post || method == .put || method == .patch ? .upload : .download
    }
}
