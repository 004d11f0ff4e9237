import CCurl
import Dispatch
import Foundation
import HTTPCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One request's life inside the engine: its easy handle, the bytes arriving, and the single
/// completion.
///
/// Threading: a transfer is built on the caller's thread, then handed to the engine. From then
/// on every `var` below is read and written only on the engine's loop thread (libcurl's callbacks run there too),
/// until the completion's block is posted: that block alone then reads the result, the head,
/// the body and the closing progress reports
/// (`deliver()`), and the loop never touches them again. `isCancelRequested` is the one field
/// other threads touch at any time, and it is atomic. User closures are only ever dispatched
/// to `callbackQueue`.
final class CurlTransfer: @unchecked Sendable {
    /// The request this transfer sends (one hop of a redirect chain: the pipeline sends each
    /// hop as a transfer of its own).
    let request: HTTPRequest
    let callbackQueue: DispatchQueue
    /// Whether the engine may queue this transfer's completion in one block with others of its
    /// loop pass bound for the same queue: ``callbackQueue`` is a serial queue of the library's
    /// and the tuning allows it (``DeliveryScheduler/isCallbackQueue(_:)``, as the caller knows).
    let batchesCompletion: Bool
    let progressHandler: (@Sendable (TransferProgress) -> Void)?
    let completion: @Sendable (Result<HTTPResponse, NetworkError>) -> Void
    let didFinish: (@Sendable () -> Void)?

    /// The URL facts of the current hop, worked out when its request was checked.
    let target: TransferTarget
    /// The engine's hand-off to the callback queues, which counts this transfer in flight and posted.
    let scheduler: DeliveryScheduler

    /// Scheme, host and port: the unit of the per-host cap.
    var hostKey: TransferTarget.HostKey { target.hostKey }

    /// Set from any thread by ``HTTPTask/cancel()``; read on the loop thread.
    let isCancelRequested = Atomic<Bool>(false)

    // MARK: Loop-thread state
    //
    // `@exclusivity(unchecked)`: these are touched only on the loop thread, never across an
    // overlapping access, and libcurl's callbacks read them once per header line and body
    // chunk; the dynamic exclusivity checks on these class properties (and the engine's) cost
    // about 3,000 instructions per small request. Internal rather than private: the transfer's
    // extensions (`CurlTransfer+*.swift`, one per concern) set them; the engine only reads `easy`.

    @exclusivity(unchecked) var easy: UnsafeMutableRawPointer?
    @exclusivity(unchecked) var headerList: UnsafeMutablePointer<curl_slist>?
    @exclusivity(unchecked) var mime: OpaquePointer?
    let errorBuffer: UnsafeMutablePointer<CChar>
    /// The current response head, kept as lines: its fields are parsed on the callback thread.
    @exclusivity(unchecked) var head: CurlResponseHeadRecorder
    /// The response body so far. A transfer that can receive one into memory starts with room
    /// for ``typicalBodyCapacity`` bytes, made on the caller's thread (see ``init``).
    @exclusivity(unchecked) var body = Data()
    /// The room `body` was given, so a `Content-Length` that fits needs no reserve on the loop thread.
    @exclusivity(unchecked) var reservedBodyCapacity = 0
    @exclusivity(unchecked) var receivedBytes: Int64 = 0
    @exclusivity(unchecked) var exceededSizeLimit = false
    /// Whether this hop's body is a followed redirect's, dropped as it arrives.
    @exclusivity(unchecked) var isDiscardingBody = false
    @exclusivity(unchecked) var fileError: String?
    @exclusivity(unchecked) var uploadFD: Int32 = -1
    @exclusivity(unchecked) var downloadFD: Int32 = -1
    @exclusivity(unchecked) var downloadStarted = false
    @exclusivity(unchecked) var resumeOffset: Int64 = 0
    /// The partial file's validator (its response's strong `ETag`, else `Last-Modified`), sent
    /// as `If-Range` with the `Range` of a resumed download; `nil` when none was stored.
    @exclusivity(unchecked) var resumeValidator: String?
    /// A failure decided by the transfer itself (a resumed range that does not fit the partial
    /// file); ``result(for:)`` delivers it whatever libcurl's code says.
    @exclusivity(unchecked) var failure: NetworkError?
    @exclusivity(unchecked) var isFinished = false
    /// The last progress sent per direction (bytes, uptime in ns); `nil` before the first.
    @exclusivity(unchecked) var lastDownloadReport: (bytes: Int64, time: UInt64)?
    @exclusivity(unchecked) var lastUploadReport: (bytes: Int64, time: UInt64)?
    /// When the transfer was configured (uptime in ns), with a progress handler only: the
    /// first report waits 50 ms from here, so a short transfer reports once, at the end, in
    /// its completion's block — not in a block of its own that wakes the callback thread.
    @exclusivity(unchecked) var progressStart: UInt64 = 0
    /// The closing progress reports, sent in the completion's block (one hop, not two).
    @exclusivity(unchecked) var finalReports: [TransferProgress] = []
    /// The result the completion's block delivers. Set on the loop thread just before the
    /// block is posted; from then on only that block touches it, `head`, `body` and
    /// `finalReports` (the queue's `async` orders the two threads' accesses).
    @exclusivity(unchecked) var outcome: Result<HTTPResponse, NetworkError>?
    @exclusivity(unchecked) var retainedSelf: Unmanaged<CurlTransfer>?

    // The connection and the idle clock (see `willSendRequest` and `hasBeenIdle`).

    /// Requests libcurl was about to send for this transfer (redirects and re-sends included),
    /// and how many of them repeated the previous one: libcurl re-sends a request whose reused
    /// connection died before an answer.
    @exclusivity(unchecked) var sends = 0
    @exclusivity(unchecked) var resends = 0
    /// The redirect count and libcurl's count of connections made at the last send.
    @exclusivity(unchecked) var hopOfLastSend = 0
    @exclusivity(unchecked) var connectsBeforeSend = 0
    /// The last two sockets libcurl opened for this transfer (two while happy eyeballs race).
    @exclusivity(unchecked) var openedSockets: (first: curl_socket_t, last: curl_socket_t) = (-1, -1)
    /// Why the pre-request callback stopped the transfer, if it did.
    @exclusivity(unchecked) var refusedResend = false
    @exclusivity(unchecked) var foundStaleConnection = false
    /// Whether the pre-request callback stopped libcurl's re-send so that the engine makes it
    /// on a fresh connection (`restartOnFreshConnection`).
    @exclusivity(unchecked) var needsFreshResend = false
    /// Whether the transfer was started again on a fresh connection (`restartOnFreshConnection`).
    @exclusivity(unchecked) var hasRestarted = false
    /// Whether libcurl may send this `http` request over TLS after all: the client keeps an
    /// HSTS store (set by the engine when it starts the transfer).
    @exclusivity(unchecked) var mayBeUpgradedToTLS = false
    /// The idle timeout in nanoseconds (0: none), when the last byte moved (0: the request is
    /// not sent yet), and the counts seen then.
    @exclusivity(unchecked) var idleLimit: UInt64 = 0
    @exclusivity(unchecked) var idleSince: UInt64 = 0
    @exclusivity(unchecked) var idleCounts: (download: Int64, upload: Int64, head: Int) = (-1, -1, -1)
    /// Bytes of response heads handed to the header callback: the idle clock's head count,
    /// kept here because asking libcurl (`CURLINFO_HEADER_SIZE`) on each progress call cost a
    /// `getinfo` per call until the body started.
    @exclusivity(unchecked) var headBytes = 0
    @exclusivity(unchecked) var isIdleTimedOut = false

    // Streaming (see `CurlTransfer+Streaming.swift`).

    /// Whether the request streams its response body: read once, on the caller's thread, since
    /// the header callback asks for every line of every response.
    let streamsResponse: Bool

    /// Whether this hop's body goes to the request's ``HTTPRequest/responseStream``: its head
    /// was final and accepted.
    @exclusivity(unchecked) var isStreaming = false
    /// Whether the write callback paused the transfer because the stream's buffer is full.
    @exclusivity(unchecked) var isReceivePaused = false
    /// Whether this transfer started its request's body stream (the one that reads it).
    @exclusivity(unchecked) var startedBodyStream = false
    /// Whether the read callback paused the transfer because the body stream had nothing yet.
    @exclusivity(unchecked) var isSendPaused = false
    /// Asks the engine, from any thread, to resume this paused transfer on the loop thread;
    /// set by the engine when it launches a transfer that streams.
    @exclusivity(unchecked) var requestResume: (@Sendable () -> Void)?

    /// Room for a small body (a JSON envelope, an error, an acknowledgement), given to `body`
    /// when the transfer is made.
    ///
    /// Why on the caller's thread: glibc gives each thread its own malloc arena, and a block
    /// freed by another thread takes its arena's lock. A body the loop thread allocated was
    /// freed by the callback thread, which then contended with libcurl's own allocations on
    /// the loop for that lock — the largest source of futex calls with 32 transfers in flight.
    /// A larger body (by `Content-Length`, or as it grows) is still reserved on the loop thread.
    static let typicalBodyCapacity = 1024

    /// - Parameters:
    ///   - batchesCompletion: whether `callbackQueue` is one of `scheduler`'s tuned queues.
    ///   - didFinish: run on the loop thread the moment the result is settled, before its
    ///     completion is posted (the coalescer closes the transfer's group to new joiners
    ///     there); library code only, never a caller's closure. Default none.
    init(request: HTTPRequest, target: TransferTarget, scheduler: DeliveryScheduler, callbackQueue: DispatchQueue,
         batchesCompletion: Bool, progress: (@Sendable (TransferProgress) -> Void)?, didFinish: (@Sendable () -> Void)? = nil,
         completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        self.didFinish = didFinish
        self.request = request
        self.target = target
        self.scheduler = scheduler
        self.callbackQueue = callbackQueue
        self.batchesCompletion = batchesCompletion
        self.progressHandler = progress
        self.completion = completion
        leavesHandleDirty = request.method != .get || request.body != .none || request.download != nil
            || request.tls != TLSOptions() || request.httpVersion != .automatic
            || request.hasRoute || target.unixSocketPath != nil
            // libcurl keeps a Digest nonce (and NTLM state) on the handle; only a reset clears it.
            || request.authentication != nil
        streamsResponse = request.responseStream != nil
        head = CurlResponseHeadRecorder(capacity: CurlResponseHeadRecorder.typicalCapacity)
        if request.download == nil, request.method != .head {
            body.reserveCapacity(CurlTransfer.typicalBodyCapacity)
            reservedBodyCapacity = CurlTransfer.typicalBodyCapacity
        }
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))
    }

    deinit {
        // Only Swift memory here: every C resource was released on the loop thread in `cleanUp`.
        errorBuffer.deallocate()
    }

    // MARK: The handle's reuse

    /// Whether this transfer leaves options on its handle that the next transfer would
    /// inherit (a method, a body, a download, TLS settings); such a handle is reset before reuse.
    /// Plain `GET`s — the common case — leave only options every transfer sets again.
    /// Worked out in `init`, on the caller's thread: comparing the TLS settings is ~500
    /// instructions the loop thread need not spend.
    let leavesHandleDirty: Bool

    /// Whether the handle must be reset before the next transfer: it carries options the next
    /// one would inherit (``leavesHandleDirty``), a fresh-connection restart, or libcurl's count
    /// of re-sends, which only `curl_easy_reset` clears — carried over, it made every sixth
    /// request on a handle fail ("Connection died, tried 5 times before giving up").
    var needsHandleReset: Bool { leavesHandleDirty || resends > 0 || hasRestarted }

    /// Releases every C resource and the retain taken in `configure`. The easy handle must
    /// already be out of the multi handle; it is returned for reuse (after `curl_easy_reset`).
    func cleanUp() -> UnsafeMutableRawPointer? {
        let handle = easy
        easy = nil
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        if let mime { curl_mime_free(mime) }
        mime = nil
        // A producer still running for this transfer's stream body has no reader any more (a
        // second send of the same body failed to start it, and must not stop the first).
        if startedBodyStream { request.body.stream?.cancel() }
        if uploadFD >= 0 { close(uploadFD) }
        uploadFD = -1
        if downloadFD >= 0 { close(downloadFD) }
        downloadFD = -1
        retainedSelf?.release()
        retainedSelf = nil
        return handle
    }

    // MARK: Reading the handle (loop thread)

    /// The value of the last response's first `name` field, as libcurl parsed it.
    func headerValue(_ name: String) -> String? {
        guard let easy else { return nil }
        var header: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(easy, name, 0, UInt32(CURLH_HEADER), -1, &header) == CURLHE_OK,
              let value = header?.pointee.value else { return nil }
        return String(cString: value)
    }

    func longInfo(_ info: CURLINFO) -> Int {
        guard let easy else { return 0 }
        var value = 0
        return ccurl_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
    }

    func info(_ info: CURLINFO) -> Int64 {
        guard let easy else { return 0 }
        var value: curl_off_t = 0
        return ccurl_easy_getinfo_off_t(easy, info, &value) == CURLE_OK ? Int64(value) : 0
    }

    func seconds(_ info: CURLINFO) -> TimeInterval {
        TimeInterval(self.info(info)) / 1_000_000
    }
}
