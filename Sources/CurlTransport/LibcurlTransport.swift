import Dispatch
import Foundation
import HTTPCore

/// The libcurl engine as the pipeline's ``Transport``: checks each request, shares identical
/// in-flight `GET`s through the coalescer and hands the rest to the engine's loop thread.
final class LibcurlTransport: Transport {
    /// The engine: one loop thread with one libcurl multi handle.
    let engine: CurlEngine
    private let coalescer = TransferCoalescer()

    /// Starts an engine thread with `limits` and `routing` (default: DNS, no HSTS), sending `userAgent` unless a request sets its own
    /// and handing completions over as `delivery` says.
    /// - Throws: ``NetworkError`` when libcurl cannot be initialised or `userAgent` is unsafe.
    init(limits: CurlEngine.Limits, routing: CurlEngine.Routing = CurlEngine.Routing(), userAgent: String, name: String,
         delivery: DeliveryTuning) throws(NetworkError) {
        engine = try CurlEngine(limits: limits, routing: routing, userAgent: userAgent, name: name, delivery: delivery)
    }

    /// Hands one validated transfer to the engine on behalf of `task`, sharing an identical
    /// `GET`/`HEAD` already in flight for the same `sharingQueue` when `coalesces` is set.
    /// `completion` always runs on `queue` (the pipeline relies on it), a request refused here
    /// included; `queue` is `sharingQueue` when that is one of the engine's tuned queues, else
    /// a serial queue that targets it (``Transport/start(_:task:queue:sharingQueue:coalesces:progress:completion:)``).
    package func start(_ request: HTTPRequest, task: HTTPTask, queue: DispatchQueue, sharingQueue: DispatchQueue,
                       coalesces: Bool, progress: (@Sendable (TransferProgress) -> Void)?,
                       completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        let target: TransferTarget
        do {
            target = try LibcurlTransport.validate(request)
        } catch {
            queue.async { completion(.failure(error)) }
            return
        }
        if coalesces, TransferCoalescer.canCoalesce(request) {
            let (transfer, cancel) = coalescer.join(request, target: target, engine: engine, queue: queue,
                                                    sharingQueue: sharingQueue, progress: progress, completion: completion)
            if let transfer { engine.add(transfer) }
            // Attaching after joining: a cancel that raced ahead still leaves the group cleanly.
            if !task.attach(request: request, cancel: cancel) { cancel() }
            return
        }
        // Only a tuned queue comes as both (see `Transport.start`): no need to ask the scheduler.
        let transfer = CurlTransfer(request: request, target: target, scheduler: engine.scheduler, callbackQueue: queue,
                                    batchesCompletion: queue === sharingQueue, progress: progress, completion: completion)
        guard task.attach(request: request, cancel: { [engine] in engine.cancel(transfer) }) else {
            queue.async { completion(.failure(NetworkError(.cancelled, "the request was cancelled"))) }
            return
        }
        engine.add(transfer)
    }

    package func redirectRequest(after response: HTTPResponse, of request: HTTPRequest) throws(NetworkError) -> HTTPRequest {
        do throws(NetworkError) {
            return try RedirectRule.nextHop(after: response, of: request)
        } catch {
            throw NetworkError(error.kind, error.message, response: response)
        }
    }

    package func isCallbackQueue(_ queue: DispatchQueue) -> Bool { engine.scheduler.isCallbackQueue(queue) }

    package func makeCallbackQueue(label: String) -> DispatchQueue { engine.scheduler.makeCallbackQueue(label: label) }

    package func deliveryEnded() { engine.scheduler.deliveryEnded() }

    package func shutDownWhenIdle() { engine.shutDownWhenIdle() }

    /// Checks what libcurl would otherwise reject late or, worse, send: the scheme, the host,
    /// the method token, header injection, and files that must exist.
    /// - Returns: the URL facts the transfer needs, each worked out once here.
    static func validate(_ request: HTTPRequest) throws(NetworkError) -> TransferTarget {
        let target = try TransferTarget(url: request.url, unixSocketPath: request.unixSocketPath)
        try request.proxy.validate()
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
        case .stream(let stream):
            if let length = stream.length, length < 0 {
                throw NetworkError(.invalidRequest, "the request body stream's length is negative (\(length)); pass nil when it is unknown")
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
