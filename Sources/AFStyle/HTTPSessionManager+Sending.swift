import Dispatch
import Foundation

/// The one path every call takes: build the request from a snapshot of the settings, hand it
/// to the core pipeline with origin `"AFStyle"`, and map deliveries to `success`/`failure`.
extension HTTPSessionManager {
    /// Sends a request built by `build`. One that cannot be built goes through
    /// ``HTTPClient/perform(unbuildable:request:plan:options:deliver:)`` — the hooks see it,
    /// nothing is sent — and fails through `failure` with no task, as AFNetworking reports a
    /// serialization failure; `nil` is returned then.
    ///
    /// - Parameters:
    ///   - method: the call's method, and `URLString` its URL string: what the hooks see of a
    ///     request that could not be built (the URL as far as it resolved, else the base URL).
    package func send<Value>(configuration: Configuration, method: HTTPMethod, URLString: String,
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
            let url = (try? resolvedURL(URLString, configuration: configuration)) ?? configuration.baseURL
            let known = url.map { url in
                var request = HTTPRequest(url: url, method: method)
                applyScopedTags(to: &request)
                return request
            }
            client.perform(unbuildable: error, request: known, plan: plan,
                           options: CallOptions(queue: queue, origin: "AFStyle")) { delivery in
                if let error = delivery.error { failure?(nil, error) }
            }
            return nil
        }
        request.tls = configuration.tls
        applyScopedTags(to: &request)
        if configuration.proxy.kind != .environment { request.proxy = configuration.proxy }
        if let socket = configuration.unixSocketPath { request.unixSocketPath = socket }
        if let credentials = configuration.authentication { request.authentication = credentials }
        let task = SessionTask(originalRequest: request, progressDirection: progressDirection)
        if let redirection = configuration.redirection { request.redirectPolicy = Self.redirectPolicy(redirection, task: task) }
        register(task)
        let options = CallOptions(queue: queue, progress: { report in
            task.record(report)
            if report.direction == progressDirection { progress?(report) }
        }, cache: cache, cookies: configuration.cookieJar, interceptors: configuration.interceptors, origin: "AFStyle",
           responders: configuration.responders)
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
    package static func progressDirection(for method: HTTPMethod) -> TransferProgress.Direction {
        method == .post || method == .put || method == .patch ? .upload : .download
    }
}
