import Dispatch
import Foundation
import Synchronization

/// Sends ``HTTPRequest``s on libcurl and calls back with ``HTTPResponse``s.
///
/// Each client owns one engine: one loop thread with one libcurl multi handle, which pools
/// connections, DNS results and TLS sessions. Make one client (or use ``shared``) and keep
/// it; a client that is released finishes the requests in flight, then stops its thread.
///
/// A response of any status is a success here: deciding which statuses are acceptable is
/// the front ends' job (Chain's `validate`, AFStyle's `acceptableStatusCodes`).
public final class HTTPClient: Sendable {
    /// Settings fixed for the client's lifetime.
    public struct Configuration: Sendable {
        /// Connections open at once to one host (scheme, host and port). Default 6, like
        /// browsers; further requests wait in libcurl's queue.
        public var maximumConnectionsPerHost: Int
        /// Requests to one host (scheme, host and port) in flight at once; further ones wait in
        /// this client's queue, highest ``HTTPRequest/priority`` first, then in order. Default 6,
        /// matching the connection cap; raise both for many parallel requests (and for
        /// HTTP/2, where streams share a connection). 0 removes the cap (libcurl then queues
        /// what the connection cap holds back, first come first served).
        public var maximumConcurrentRequestsPerHost: Int
        /// Connections open at once in total. Default 0 (no limit beyond the per-host one).
        public var maximumConnections: Int
        /// Idle connections kept for reuse. Default 32.
        public var maximumIdleConnections: Int
        /// Where completions and progress closures run unless a request names its own queue.
        /// Default: a serial queue of this client's, which works in command-line programs
        /// (nothing needs to run the main run loop). Never the engine's loop thread.
        public var callbackQueue: DispatchQueue
        /// The `User-Agent` sent unless a request sets its own.
        /// Default `Chain/<version> libcurl/<version>`. One with CR, LF or NUL fails every
        /// request with ``NetworkError/Kind/invalidRequest`` (it would smuggle in header lines).
        public var userAgent: String
        /// Interceptors every call of this client runs, before the call's own. Default none.
        public var interceptors: [any RequestInterceptor]

        /// Makes a configuration; every argument has the default stated on its property.
        public init(maximumConnectionsPerHost: Int = 6, maximumConcurrentRequestsPerHost: Int = 6,
                    maximumConnections: Int = 0, maximumIdleConnections: Int = 32,
                    callbackQueue: DispatchQueue = HTTPClient.makeCallbackQueue(label: "chain.http.callbacks"),
                    userAgent: String = HTTPClient.defaultUserAgent, interceptors: [any RequestInterceptor] = []) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.maximumConcurrentRequestsPerHost = maximumConcurrentRequestsPerHost
            self.maximumConnections = maximumConnections
            self.maximumIdleConnections = maximumIdleConnections
            self.callbackQueue = callbackQueue
            self.userAgent = userAgent
            self.interceptors = interceptors
        }
    }

    /// This library's version.
    public static let version = "0.1.0"

    /// `Chain/<version> libcurl/<version>`, the default `User-Agent`.
    public static let defaultUserAgent = "Chain/\(version) libcurl/\(CurlGlobal.version)"

    /// The client both front ends use unless told otherwise, with the default configuration.
    public static let shared = HTTPClient()

    /// The configuration the client was made with.
    public let configuration: Configuration
    private let engine: CurlEngine?
    let startupError: NetworkError?
    /// The engine's hand-off counts, for tests.
    var callbackHandoff: CallbackHandoff? { engine?.handoff }
    private let coalescer = TransferCoalescer()

    /// Makes a client and starts its engine thread. If libcurl cannot be initialised, every
    /// request fails with ``NetworkError/Kind/transport`` instead of crashing; if the
    /// configured user agent has CR, LF or NUL, with ``NetworkError/Kind/invalidRequest``.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
        let limits = CurlEngine.Limits(connectionsPerHost: max(0, configuration.maximumConnectionsPerHost),
                                       concurrentRequestsPerHost: max(0, configuration.maximumConcurrentRequestsPerHost),
                                       totalConnections: max(0, configuration.maximumConnections),
                                       cachedConnections: max(1, configuration.maximumIdleConnections))
        do {
            engine = try CurlEngine(limits: limits, userAgent: configuration.userAgent, name: "chain.curl-loop")
            startupError = nil
        } catch {
            engine = nil
            startupError = error
        }
    }

    deinit {
        engine?.shutDownWhenIdle()
    }

    /// Sends a request through the pipeline (interceptors, hooks) and delivers the response
    /// of any status.
    ///
    /// - Parameters:
    ///   - request: what to send. It is checked first (scheme, headers, files); a bad request
    ///     fails through `completion` and nothing is sent.
    ///   - queue: where `progress` and `completion` run. Default: the configuration's
    ///     ``Configuration/callbackQueue``.
    ///   - progress: upload and download progress, throttled and monotonic. Default `nil`.
    ///   - completion: called exactly once with the response (any status) or the error.
    /// - Returns: a task that can cancel the request.
    @discardableResult
    public func send(_ request: HTTPRequest, queue: DispatchQueue? = nil,
                     progress: (@Sendable (TransferProgress) -> Void)? = nil,
                     completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) -> HTTPTask {
        perform(request, plan: ResponsePlan(validate: { _ in }, decode: { $0 }),
                options: CallOptions(queue: queue, progress: progress)) { completion($0.result) }
    }

    /// Runs one call through the whole pipeline: interceptors, the cache step, the engine,
    /// retries, the plan (validation and decoding) and the hooks.
    ///
    /// - Parameters:
    ///   - request: what to send.
    ///   - plan: how to validate and decode the response.
    ///   - options: queue, progress, cache step, per-call hooks and interceptors.
    ///   - deliver: called once with the result — twice for a `.fileFirst` cache hit, the
    ///     stored copy first (``Delivery/isFinal`` `false`) — on the options' queue.
    /// - Returns: a task that cancels the call (the transfer, a pending retry).
    @discardableResult
    public func perform<Value>(_ request: HTTPRequest, plan: ResponsePlan<Value>, options: CallOptions = CallOptions(),
                               deliver: @escaping @Sendable (Delivery<Value>) -> Void) -> HTTPTask {
        let call = PipelineCall(client: self, engine: engine, request: request, plan: plan, options: options, deliver: deliver)
        call.start()
        return call.task
    }

    /// Hands one validated transfer to the engine on behalf of `task`, sharing an identical
    /// `GET`/`HEAD` already in flight for the same `sharingQueue` when `coalesces` is set.
    /// `completion` always runs on `queue` (the pipeline relies on it), a request refused here
    /// included; `queue` is `sharingQueue` or a serial queue that targets it.
    func startTransfer(_ request: HTTPRequest, task: HTTPTask, engine: CurlEngine, queue: DispatchQueue,
                       sharingQueue: DispatchQueue, coalesces: Bool, progress: (@Sendable (TransferProgress) -> Void)?,
                       completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        let target: TransferTarget
        do {
            target = try HTTPClient.validate(request)
        } catch {
            queue.async { completion(.failure(error)) }
            return
        }
        let cancelled = NetworkError(.cancelled, "the request was cancelled")
        if coalesces, TransferCoalescer.canCoalesce(request) {
            let (transfer, cancel) = coalescer.join(request, target: target, engine: engine, queue: queue,
                                                    sharingQueue: sharingQueue, progress: progress, completion: completion)
            if let transfer { engine.add(transfer) }
            // Attaching after joining: a cancel that raced ahead still leaves the group cleanly.
            if !task.attach(request: request, cancel: cancel) { cancel() }
            return
        }
        let transfer = CurlTransfer(request: request, target: target, handoff: engine.handoff, callbackQueue: queue,
                                    progress: progress, completion: completion)
        guard task.attach(request: request, cancel: { engine.cancel(transfer) }) else {
            queue.async { completion(.failure(cancelled)) }
            return
        }
        engine.add(transfer)
    }

    /// Sends a request and waits for its response. Cancelling the Swift task cancels the transfer.
    /// - Throws: ``NetworkError`` (``NetworkError/Kind/cancelled`` when the task was cancelled).
    public func response(for request: HTTPRequest,
                         progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws(NetworkError) -> HTTPResponse {
        let box = TaskCancellation()
        let result: Result<HTTPResponse, NetworkError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = send(request, progress: progress) { continuation.resume(returning: $0) }
                box.set(task)
            }
        } onCancel: {
            box.cancel()
        }
        return try result.get()
    }

    /// Checks what libcurl would otherwise reject late or, worse, send: the scheme, the host,
    /// the method token, header injection, and files that must exist.
    /// - Returns: the URL facts the transfer needs, each worked out once here.
    static func validate(_ request: HTTPRequest) throws(NetworkError) -> TransferTarget {
        let target = try TransferTarget(url: request.url)
        let urlString = target.urlString
        // libcurl refuses strings over CURL_MAX_INPUT_LENGTH (8,000,000 bytes) with a bare
        // BAD_FUNCTION_ARGUMENT; say what is wrong instead.
        let urlLength = urlString.utf8.count
        guard urlLength <= 8_000_000 else {
            throw NetworkError(.invalidRequest, "the URL is \(urlLength) bytes long; libcurl accepts at most 8,000,000 (send large parameters in the body)")
        }
        try request.timeouts.validate()
        guard request.method.isValidToken else {
            throw NetworkError(.invalidRequest, "\"\(request.method.rawValue)\" is not a valid HTTP method")
        }
        if let field = request.headers.firstUnsafeField() {
            throw NetworkError(.invalidRequest,
                               "header \"\(field.name.debugDescription.dropFirst().dropLast())\" has a character that is not allowed (CR, LF, NUL or a non-token name)")
        }
        switch request.body {
        case .file(let url):
            try requireReadableFile(url)
        case .multipart(let form):
            for part in form.parts {
                if case .file(let url) = part.content { try requireReadableFile(url) }
            }
        case .none, .data:
            break
        }
        if let download = request.download {
            let directory = download.destination.deletingLastPathComponent().path
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw NetworkError(.fileIO, "the download directory \(directory) does not exist")
            }
            // Range is defined for GET alone (RFC 9110 §14.2): a server ignores it on another
            // method, and the answer to one POST is no continuation of another's.
            guard !download.resumesPartialFile || request.method == .get else {
                throw NetworkError(.invalidRequest,
                                   "resumesPartialFile needs GET: \(request.method.rawValue) has no byte ranges to resume (download without it)")
            }
        }
        return target
    }

    private static func requireReadableFile(_ url: URL) throws(NetworkError) {
        var isDirectory: ObjCBool = false
        guard url.isFileURL, FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
              !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: url.path) else {
            throw NetworkError(.fileIO, "the file \(url.path) does not exist or cannot be read")
        }
    }
}

extension Result where Success == HTTPResponse, Failure == NetworkError {
    /// The response of a success, or the response a failure carries.
    var response: HTTPResponse? {
        switch self {
        case .success(let response): response
        case .failure(let error): error.response
        }
    }
}
