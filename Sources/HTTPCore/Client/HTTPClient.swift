import Dispatch
import Foundation
import Synchronization

/// Sends ``HTTPRequest``s through the pipeline and calls back with ``HTTPResponse``s.
///
/// Each client owns one engine: one loop thread with one libcurl multi handle, which pools
/// connections, DNS results and TLS sessions. Make one client (or use `HTTPClient.shared`, from CurlTransport) and keep
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
        /// Default `nil`: a serial queue of the client's own (``HTTPClient/callbackQueue``), which
        /// works in command-line programs (nothing needs to run the main run loop). Never the
        /// engine's loop thread.
        public var callbackQueue: DispatchQueue?
        /// The `User-Agent` sent unless a request sets its own. Default `nil`:
        /// `Chain/<version> libcurl/<version>` (`HTTPClient.defaultUserAgent`, from CurlTransport). One with CR, LF
        /// or NUL fails every request with ``NetworkError/Kind/invalidRequest`` (it would smuggle
        /// in header lines).
        public var userAgent: String?
        /// Interceptors every call of this client runs, before the call's own. Default none.
        public var interceptors: [any RequestInterceptor]
        /// How finished transfers are handed to the callback queues. Default
        /// ``DeliveryTuning/automatic``: short waits that save a thread wakeup per request;
        /// ``DeliveryTuning/off`` spends no processor time on them.
        public var delivery: DeliveryTuning
        /// Host names answered with fixed addresses instead of DNS (``DNSOverride``); add them
        /// with ``resolve(host:port:to:)``. Default none.
        public var dnsOverrides: [DNSOverride] = []
        /// A file that keeps HTTP Strict Transport Security (RFC 6797) between runs: once an
        /// `https` response of a host says `Strict-Transport-Security`, this client sends that
        /// host's `http://` requests over `https` for the time it names. Default `nil`: no HSTS
        /// at all (plain `http` stays plain, as in URLSession on Linux). The file is read when
        /// the client starts and written atomically (a new file, mode 0600, renamed over the
        /// old) when a host is added or removed, at most every 10 minutes when only expiry
        /// times moved, and when the client stops; a missing file is an empty store, an
        /// unreadable line is skipped. IP addresses never get entries. The store is the
        /// client's alone: two clients should not share one file.
        public var hstsFile: URL? = nil

        /// Makes a configuration; every argument has the default stated on its property.
        public init(maximumConnectionsPerHost: Int = 6, maximumConcurrentRequestsPerHost: Int = 6,
                    maximumConnections: Int = 0, maximumIdleConnections: Int = 32,
                    callbackQueue: DispatchQueue? = nil, userAgent: String? = nil, interceptors: [any RequestInterceptor] = [],
                    delivery: DeliveryTuning = .automatic) {
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.maximumConcurrentRequestsPerHost = maximumConcurrentRequestsPerHost
            self.maximumConnections = maximumConnections
            self.maximumIdleConnections = maximumIdleConnections
            self.callbackQueue = callbackQueue
            self.userAgent = userAgent
            self.interceptors = interceptors
            self.delivery = delivery
        }
    }

    /// This library's version.
    public static let version = "0.1.0"

    /// The configuration the client was made with.
    public let configuration: Configuration
    /// Where completions and progress closures run unless a request names its own queue: the
    /// configuration's ``Configuration/callbackQueue``, else a serial queue of this client's.
    public let callbackQueue: DispatchQueue
    /// What moves the bytes (the libcurl engine for every client made with `init(configuration:)`).
    package let transport: any Transport
    /// Whether ``callbackQueue`` is one of the transport's tuned queues, asked once here rather
    /// than on every call (the question reads the queue's specific data).
    private let callbackQueueIsTransports: Bool

    /// Makes a client on `transport`; `init(configuration:)` (module `CurlTransport`, re-exported
    /// by both front ends) passes the libcurl engine.
    package init(configuration: Configuration, transport: any Transport) {
        self.configuration = configuration
        self.transport = transport
        let callbackQueue = configuration.callbackQueue ?? transport.makeCallbackQueue(label: "chain.http.callbacks")
        self.callbackQueue = callbackQueue
        self.callbackQueueIsTransports = transport.isCallbackQueue(callbackQueue)
    }

    /// Whether the pipeline may run a call's blocks on `queue` itself (see
    /// ``Transport/isCallbackQueue(_:)``).
    func isTransportsCallbackQueue(_ queue: DispatchQueue) -> Bool {
        queue === callbackQueue ? callbackQueueIsTransports : transport.isCallbackQueue(queue)
    }

    deinit {
        transport.shutDownWhenIdle()
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
        let call = PipelineCall(client: self, request: request, plan: plan, options: options, deliver: deliver)
        call.start()
        return call.task
    }

    /// Runs a call whose request could not be built (a bad URL, parameters that would not
    /// encode): both front ends report such a failure through here, so it goes where every
    /// other failure goes.
    ///
    /// Nothing is adapted, looked up or sent: the options' interceptors, cache step and stub
    /// are not used. The hooks see the call (`willSend`, then `didFail` with `error`), and
    /// `deliver` runs once, on the options' queue, with `error` — never inside this method.
    /// A cancel after this method returned does not change the error.
    ///
    /// - Parameters:
    ///   - error: why the request could not be built.
    ///   - request: what is known of the request (hooks and ``HTTPTask/originalRequest`` show
    ///     it); `nil`: a `GET` of `file:///`.
    ///   - plan: the call's plan; only its value type matters, as it never runs.
    ///   - options: the queue, hooks and origin; default `CallOptions()`.
    ///   - deliver: called once with the failure.
    /// - Returns: a task, already decided.
    @discardableResult
    package func perform<Value>(unbuildable error: NetworkError, request: HTTPRequest?, plan: ResponsePlan<Value>,
                                options: CallOptions = CallOptions(),
                                deliver: @escaping @Sendable (Delivery<Value>) -> Void) -> HTTPTask {
        let call = PipelineCall(client: self, request: request ?? HTTPRequest(url: URL(fileURLWithPath: "/")),
                                unbuildable: error, plan: plan, options: options, deliver: deliver)
        call.start()
        return call.task
    }

    /// Sends a request and waits for its response. Cancelling the Swift task cancels the transfer.
    /// - Throws: ``NetworkError`` (``NetworkError/Kind/cancelled`` when the task was cancelled).
    public func response(for request: HTTPRequest,
                         progress: (@Sendable (TransferProgress) -> Void)? = nil) async throws(NetworkError) -> HTTPResponse {
        try await TaskCancellation.firstResult { resume in send(request, progress: progress, completion: resume) }.get()
    }
}
