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
/// on every `var` below (the request and target too, which a followed redirect replaces) is
/// read and written only on the engine's loop thread (libcurl's callbacks run there too),
/// until the completion's block is posted: that block alone then reads the result, the head,
/// the body and the closing progress reports
/// (`deliver()`), and the loop never touches them again. `isCancelRequested` is the one field
/// other threads touch at any time, and it is atomic. User closures are only ever dispatched
/// to `callbackQueue`.
final class CurlTransfer: @unchecked Sendable {
    /// The request of the current hop: the caller's, then each redirect's next request
    /// (``prepareRedirect(after:)``, on the loop thread, between two hops).
    @exclusivity(unchecked) private(set) var request: HTTPRequest
    let callbackQueue: DispatchQueue
    /// Whether ``callbackQueue`` is a serial queue this library made
    /// (``HTTPClient/makeCallbackQueue(label:)``), whose completions the engine may batch.
    let isCallbackQueueSerial: Bool
    let progressHandler: (@Sendable (TransferProgress) -> Void)?
    private let completion: @Sendable (Result<HTTPResponse, NetworkError>) -> Void
    private let didFinish: (@Sendable () -> Void)?

    /// The URL facts of the current hop, worked out when its request was checked.
    @exclusivity(unchecked) private(set) var target: TransferTarget
    /// The engine's counts for keeping the callback thread warm (see ``CallbackHandoff``).
    let handoff: CallbackHandoff

    /// Scheme, host and port: the unit of the per-host cap.
    var hostKey: TransferTarget.HostKey { target.hostKey }

    /// Set from any thread by ``HTTPTask/cancel()``; read on the loop thread.
    let isCancelRequested = Atomic<Bool>(false)

    // MARK: Loop-thread state
    //
    // `@exclusivity(unchecked)`: these are touched only on the loop thread, never across an
    // overlapping access, and libcurl's callbacks read them once per header line and body
    // chunk; the dynamic exclusivity checks on these class properties (and the engine's) cost
    // about 3,000 instructions per small request.

    @exclusivity(unchecked) private(set) var easy: UnsafeMutableRawPointer?
    @exclusivity(unchecked) private var headerList: UnsafeMutablePointer<curl_slist>?
    @exclusivity(unchecked) private var mime: OpaquePointer?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// The current response head, kept as lines: its fields are parsed on the callback thread.
    @exclusivity(unchecked) private var head: CurlResponseHeadRecorder
    /// The response body so far. A transfer that can receive one into memory starts with room
    /// for ``typicalBodyCapacity`` bytes, made on the caller's thread (see ``init``).
    @exclusivity(unchecked) private var body = Data()
    /// The room `body` was given, so a `Content-Length` that fits needs no reserve on the loop thread.
    @exclusivity(unchecked) private var reservedBodyCapacity = 0
    @exclusivity(unchecked) private var receivedBytes: Int64 = 0
    @exclusivity(unchecked) private var exceededSizeLimit = false
    /// Whether this hop's body is a followed redirect's, dropped as it arrives.
    @exclusivity(unchecked) private var isDiscardingBody = false
    @exclusivity(unchecked) private var fileError: String?
    @exclusivity(unchecked) private var uploadFD: Int32 = -1
    @exclusivity(unchecked) private var downloadFD: Int32 = -1
    @exclusivity(unchecked) private var downloadStarted = false
    @exclusivity(unchecked) private var resumeOffset: Int64 = 0
    /// The partial file's validator (its response's strong `ETag`, else `Last-Modified`), sent
    /// as `If-Range` with the `Range` of a resumed download; `nil` when none was stored.
    @exclusivity(unchecked) private var resumeValidator: String?
    /// A failure decided by the transfer itself (too many redirects, a resumed range that does
    /// not fit the partial file); ``result(for:)`` delivers it whatever libcurl's code says.
    @exclusivity(unchecked) private var failure: NetworkError?
    /// Redirects followed so far, and the total time and new connections of those hops.
    @exclusivity(unchecked) private var redirectCount = 0
    @exclusivity(unchecked) private var earlierHopsTime: TimeInterval = 0
    @exclusivity(unchecked) private var earlierHopsConnections = 0
    @exclusivity(unchecked) private var isFinished = false
    /// The last progress sent per direction (bytes, uptime in ns); `nil` before the first.
    @exclusivity(unchecked) private var lastDownloadReport: (bytes: Int64, time: UInt64)?
    @exclusivity(unchecked) private var lastUploadReport: (bytes: Int64, time: UInt64)?
    /// When the transfer was configured (uptime in ns), with a progress handler only: the
    /// first report waits 50 ms from here, so a short transfer reports once, at the end, in
    /// its completion's block — not in a block of its own that wakes the callback thread.
    @exclusivity(unchecked) private var progressStart: UInt64 = 0
    /// The closing progress reports, sent in the completion's block (one hop, not two).
    @exclusivity(unchecked) private var finalReports: [TransferProgress] = []
    /// The result the completion's block delivers. Set on the loop thread just before the
    /// block is posted; from then on only that block touches it, `head`, `body` and
    /// `finalReports` (the queue's `async` orders the two threads' accesses).
    @exclusivity(unchecked) private var outcome: Result<HTTPResponse, NetworkError>?
    @exclusivity(unchecked) private var retainedSelf: Unmanaged<CurlTransfer>?

    // The connection and the idle clock (see `willSendRequest` and `hasBeenIdle`).

    /// Requests libcurl was about to send for this transfer (redirects and re-sends included),
    /// and how many of them repeated the previous one: libcurl re-sends a request whose reused
    /// connection died before an answer.
    @exclusivity(unchecked) private var sends = 0
    @exclusivity(unchecked) private var resends = 0
    /// The redirect count and libcurl's count of connections made at the last send.
    @exclusivity(unchecked) private var hopOfLastSend = 0
    @exclusivity(unchecked) private var connectsBeforeSend = 0
    /// The last two sockets libcurl opened for this transfer (two while happy eyeballs race).
    @exclusivity(unchecked) private var openedSockets: (first: curl_socket_t, last: curl_socket_t) = (-1, -1)
    /// Why the pre-request callback stopped the transfer, if it did.
    @exclusivity(unchecked) private var refusedResend = false
    @exclusivity(unchecked) private var foundStaleConnection = false
    /// Whether the pre-request callback stopped libcurl's re-send so that the engine makes it
    /// on a fresh connection (`restartOnFreshConnection`).
    @exclusivity(unchecked) private var needsFreshResend = false
    /// Whether the transfer was started again on a fresh connection (`restartOnFreshConnection`).
    @exclusivity(unchecked) private var hasRestarted = false
    /// The idle timeout in nanoseconds (0: none), when the last byte moved (0: the request is
    /// not sent yet), and the counts seen then.
    @exclusivity(unchecked) private var idleLimit: UInt64 = 0
    @exclusivity(unchecked) private var idleSince: UInt64 = 0
    @exclusivity(unchecked) private var idleCounts: (download: Int64, upload: Int64, head: Int) = (-1, -1, -1)
    /// Bytes of response heads handed to the header callback: the idle clock's head count,
    /// kept here because asking libcurl (`CURLINFO_HEADER_SIZE`) on each progress call cost a
    /// `getinfo` per call until the body started.
    @exclusivity(unchecked) private var headBytes = 0
    @exclusivity(unchecked) private var isIdleTimedOut = false

    /// Room for a small body (a JSON envelope, an error, an acknowledgement), given to `body`
    /// when the transfer is made.
    ///
    /// Why on the caller's thread: glibc gives each thread its own malloc arena, and a block
    /// freed by another thread takes its arena's lock. A body the loop thread allocated was
    /// freed by the callback thread, which then contended with libcurl's own allocations on
    /// the loop for that lock — the largest source of futex calls with 32 transfers in flight.
    /// A larger body (by `Content-Length`, or as it grows) is still reserved on the loop thread.
    static let typicalBodyCapacity = 1024

    /// - Parameter didFinish: run on the loop thread the moment the result is settled, before
    ///   its completion is posted (the coalescer closes the transfer's group to new joiners
    ///   there); library code only, never a caller's closure. Default none.
    init(request: HTTPRequest, target: TransferTarget, handoff: CallbackHandoff, callbackQueue: DispatchQueue,
         progress: (@Sendable (TransferProgress) -> Void)?, didFinish: (@Sendable () -> Void)? = nil,
         completion: @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) {
        self.didFinish = didFinish
        self.request = request
        self.target = target
        self.handoff = handoff
        self.callbackQueue = callbackQueue
        isCallbackQueueSerial = CallbackHandoff.isMarked(callbackQueue)
        self.progressHandler = progress
        self.completion = completion
        leavesHandleDirty = request.method != .get || request.body != .none || request.download != nil
            || request.tls != TLSOptions() || request.httpVersion != .automatic
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

    // MARK: Setting up (loop thread)

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

    /// Sets the options that are the same for every transfer of a client, once per handle
    /// (after creation or `curl_easy_reset`): libcurl copies strings on every setopt, and
    /// re-setting these per request showed up in profiles.
    ///
    /// The `User-Agent` line is not among them: it comes with every request's header list
    /// (see ``CurlDefaultHeaders``).
    static func applyBaseline(to handle: UnsafeMutableRawPointer, share: UnsafeMutableRawPointer?) -> CURLcode {
        let codes: [CURLcode] = [
            ccurl_easy_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
            ccurl_easy_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            // "" means every encoding this libcurl decodes: gzip, deflate, br, zstd. This turns
            // decoding on; the `Accept-Encoding` line itself comes from `CurlDefaultHeaders`.
            ccurl_easy_setopt_string(handle, CURLOPT_ACCEPT_ENCODING, ""),
            ccurl_easy_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1),
            ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            ccurl_easy_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            ccurl_easy_setopt_long(handle, CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2TLS),
            share.map { ccurl_easy_setopt_share(handle, $0) } ?? CURLE_OK,
            // `_withUnsafeGuaranteedRef`: the transfer is kept alive by the retain `configure`
            // took until `cleanUp`, so these callbacks — one per header line and body chunk —
            // need no retain and release of their own.
            ccurl_easy_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION) { buffer, size, count, userdata in
                guard let buffer, let userdata else { return 0 }
                return Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef {
                    $0.didReceiveBody(UnsafeRawBufferPointer(start: buffer, count: size * count))
                }
            },
            // A proxy's answer to CONNECT (an `https_proxy` from the environment) is no head of
            // the response: kept from the header callback, whose recorder starts a head only
            // where libcurl began a response of the origin's.
            ccurl_easy_setopt_long(handle, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1),
            ccurl_easy_setopt_data_callback(handle, CURLOPT_HEADERFUNCTION) { buffer, size, count, userdata in
                guard let buffer, let userdata else { return 0 }
                // A refused line (a fake status line, conflicting lengths) returns 0: libcurl
                // stops before the body, and `result(for:)` reports the recorder's reason.
                return Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef { transfer in
                    transfer.headBytes &+= size * count
                    return transfer.head.record(UnsafeRawBufferPointer(start: buffer, count: size * count)) {
                        CurlResponseHeadRecorder.RequestsSent(redirects: transfer.longInfo(CURLINFO_REDIRECT_COUNT),
                                                              bytes: transfer.longInfo(CURLINFO_REQUEST_SIZE))
                    } ? size * count : 0
                }
            },
            ccurl_easy_setopt_xferinfo_callback(handle) { userdata, dlTotal, dlNow, ulTotal, ulNow in
                guard let userdata else { return 0 }
                return Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef {
                    $0.didProgress(dlTotal: dlTotal, dlNow: dlNow, ulTotal: ulTotal, ulNow: ulNow)
                }
            },
            ccurl_easy_setopt_prereq_callback(handle) { userdata, _, _, remotePort, localPort in
                guard let userdata else { return Int32(CURL_PREREQFUNC_OK) }
                return Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef {
                    $0.willSendRequest(localPort: localPort, remotePort: remotePort)
                }
            },
            // Called once per new socket (not per request): the pre-request callback needs it.
            ccurl_easy_setopt_sockopt_callback(handle) { userdata, socket, _ in
                if let userdata {
                    Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef { $0.openedSockets = ($0.openedSockets.last, socket) }
                }
                return CURL_SOCKOPT_OK
            },
        ]
        return codes.first { $0 != CURLE_OK } ?? CURLE_OK
    }

    /// Configures `handle` (which carries the baseline) for this request and takes the retain
    /// that curl's callbacks rely on. Every option a clean previous transfer may have changed
    /// is set again here.
    /// - Throws: a ``NetworkError`` when an option is refused or a file cannot be opened;
    ///   the caller then finishes the transfer with it.
    func configure(handle: UnsafeMutableRawPointer, defaultHeaders: CurlDefaultHeaders) throws(NetworkError) {
        easy = handle
        let retained = Unmanaged.passRetained(self)
        retainedSelf = retained
        let me = retained.toOpaque()

        try set(CURLOPT_URL, target.urlString)
        try set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try set(CURLOPT_PRIVATE, pointer: me)
        try set(CURLOPT_WRITEDATA, pointer: me)
        try set(CURLOPT_HEADERDATA, pointer: me)
        try set(CURLOPT_XFERINFODATA, pointer: me)
        try set(CURLOPT_PREREQDATA, pointer: me)
        try set(CURLOPT_SOCKOPTDATA, pointer: me)
        idleLimit = Timeouts.nanoseconds(request.timeouts.idle)
        // The progress callback also keeps the idle clock (see `hasBeenIdle`).
        try set(CURLOPT_NOPROGRESS, progressHandler == nil && idleLimit == 0 ? 1 : 0)
        if progressHandler != nil { progressStart = DispatchTime.now().uptimeNanoseconds }

        try configureTimeouts()
        try configureTLS()
        try configureMethodAndBody(handle: handle)
        prepareResume()
        try configureHeaders(handle: handle, defaults: defaultHeaders)
        try configureDownload()
    }

    private func configureTimeouts() throws(NetworkError) {
        let timeouts = request.timeouts
        // Always set, 0 included: a reused handle must not keep the previous request's values.
        // The idle timeout is ours (`hasBeenIdle`): libcurl's low-speed check averages the
        // speed over the window, so a stream of one byte every 1.5 s failed an idle limit of 3 s.
        try set(CURLOPT_CONNECTTIMEOUT_MS, milliseconds(timeouts.connect))
        try set(CURLOPT_TIMEOUT_MS, milliseconds(timeouts.total))
    }

    // Redirects: libcurl's following (`CURLOPT_FOLLOWLOCATION`) is never turned on, since it
    // kept a custom method and sent a stale body on every hop; the engine follows them itself,
    // one hop at a time (see ``RedirectRule``). A handle comes from `curl_easy_reset` or
    // libcurl's defaults, so it need not be turned off either.

    /// When this hop ended in a redirect the request's policy follows, makes the transfer carry
    /// the next hop (its request, target and a fresh response) and returns the host the
    /// finished hop ran on; the engine then starts the transfer again on a new handle, with
    /// the same completion, task and cancel flag. `nil` when the transfer is done: with the
    /// response it has, or with a ``failure`` (too many redirects, a bad `Location`, a
    /// scheme other than `http` and `https`).
    ///
    /// Costs nothing but a comparison for a response that is not a redirect.
    func prepareRedirect(after code: CURLcode) -> TransferTarget.HostKey? {
        guard code == CURLE_OK, RedirectRule.follows(head.statusCode), case .follow(let maximum) = request.redirectPolicy,
              !isCancelRequested.load(ordering: .relaxed), let location = headerValue("Location") else { return nil }
        guard redirectCount < maximum else {
            failure = NetworkError(.tooManyRedirects, "more redirects than allowed (\(max(0, maximum)))",
                                   response: partialResponse())
            return nil
        }
        var next: HTTPRequest
        let nextTarget: TransferTarget
        do {
            next = try RedirectRule.nextRequest(after: head.statusCode, location: location, from: request)
            nextTarget = try TransferTarget(url: next.url)
        } catch {
            failure = NetworkError(error.kind, error.message, response: partialResponse())
            return nil
        }
        let hopTime = seconds(CURLINFO_TOTAL_TIME_T)
        // The total timeout covers every hop: the next one gets what is left of it.
        if next.timeouts.total > 0 {
            next.timeouts.total -= hopTime
            guard next.timeouts.total > 0 else {
                failure = NetworkError(.timedOut, "the total timeout ran out while following redirects",
                                       response: partialResponse())
                return nil
            }
        }
        let finishedHost = target.hostKey
        earlierHopsTime += hopTime
        earlierHopsConnections += longInfo(CURLINFO_NUM_CONNECTS)
        redirectCount += 1
        request = next
        target = nextTarget
        // The next hop's response starts from nothing; the body keeps its room.
        head = CurlResponseHeadRecorder(capacity: CurlResponseHeadRecorder.typicalCapacity)
        body.removeAll(keepingCapacity: true)
        receivedBytes = 0
        isDiscardingBody = false
        // A hop is a new perform: its first send is no re-send, and its connection is its own.
        startSendCountsOver()
        hasRestarted = false
        downloadStarted = false
        resumeOffset = 0
        resumeValidator = nil
        return finishedHost
    }

    /// The value of the last response's first `name` field, as libcurl parsed it.
    private func headerValue(_ name: String) -> String? {
        guard let easy else { return nil }
        var header: UnsafeMutablePointer<curl_header>?
        guard curl_easy_header(easy, name, 0, UInt32(CURLH_HEADER), -1, &header) == CURLHE_OK,
              let value = header?.pointee.value else { return nil }
        return String(cString: value)
    }

    private func configureTLS() throws(NetworkError) {
        let tls = request.tls
        // The baseline verifies; only a request that opts out changes it (and dirties the handle).
        if tls.allowsInsecureConnections {
            try set(CURLOPT_SSL_VERIFYPEER, 0)
            try set(CURLOPT_SSL_VERIFYHOST, 0)
        }
        if let caFile = tls.caFile { try set(CURLOPT_CAINFO, caFile.path) }
        if let pinned = tls.pinnedPublicKey { try set(CURLOPT_PINNEDPUBLICKEY, pinned) }
        if let certificate = tls.clientCertificate { try set(CURLOPT_SSLCERT, certificate.path) }
        if let key = tls.clientKey { try set(CURLOPT_SSLKEY, key.path) }
        if let password = tls.clientKeyPassword { try set(CURLOPT_KEYPASSWD, password) }
        switch request.httpVersion {
        case .automatic: break  // the baseline's HTTP/2-over-TLS preference
        case .http1_1: try set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
        case .http2PriorKnowledge: try set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE)
        }
        // Wait for a connection that may multiplex (HTTP/2) rather than opening another one.
        try set(CURLOPT_PIPEWAIT, target.isHTTPS ? 1 : 0)
    }

    private func configureMethodAndBody(handle: UnsafeMutableRawPointer) throws(NetworkError) {
        let method = request.method
        switch request.body {
        case .none:
            if method == .get {
                try set(CURLOPT_HTTPGET, 1)
            } else if method == .head {
                try set(CURLOPT_NOBODY, 1)
            } else if method == .post || method == .put || method == .patch {
                // An empty body still needs `Content-Length: 0` for these methods.
                try set(CURLOPT_POSTFIELDSIZE_LARGE, off: 0)
                try set(CURLOPT_COPYPOSTFIELDS, "")
                try set(CURLOPT_CUSTOMREQUEST, method.rawValue)
            } else {
                try set(CURLOPT_CUSTOMREQUEST, method.rawValue)
            }
        case .data(let data):
            try set(CURLOPT_POSTFIELDSIZE_LARGE, off: curl_off_t(data.count))
            let code = data.withUnsafeBytes { raw -> CURLcode in
                // COPYPOSTFIELDS copies the bytes, so the buffer need not outlive this call.
                // An empty Data has no base address; libcurl accepts an empty C string instead.
                guard let base = raw.baseAddress, raw.count > 0 else {
                    return ccurl_easy_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, "")
                }
                return ccurl_easy_setopt_pointer(handle, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base))
            }
            try check(code)
            if method != .post { try set(CURLOPT_CUSTOMREQUEST, method.rawValue) }
        case .file(let url):
            let fd = open(url.path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else {
                throw NetworkError(.fileIO, "cannot open upload file \(url.path): \(String(cString: strerror(errno)))")
            }
            uploadFD = fd
            var status = stat()
            guard fstat(fd, &status) == 0 else {
                throw NetworkError(.fileIO, "cannot read upload file \(url.path): \(String(cString: strerror(errno)))")
            }
            try set(CURLOPT_UPLOAD, 1)
            try set(CURLOPT_INFILESIZE_LARGE, off: curl_off_t(status.st_size))
            try check(ccurl_easy_setopt_pointer(handle, CURLOPT_READDATA, retainedSelf?.toOpaque()))
            try check(ccurl_easy_setopt_data_callback(handle, CURLOPT_READFUNCTION) { buffer, size, count, userdata in
                guard let buffer, let userdata else { return Int(CURL_READFUNC_ABORT) }
                return Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef {
                    $0.readUpload(into: buffer, capacity: size * count)
                }
            })
            try set(CURLOPT_CUSTOMREQUEST, method.rawValue)
        case .multipart(let form):
            guard let mime = curl_mime_init(handle) else {
                throw NetworkError(.transport, "libcurl could not create a MIME body")
            }
            self.mime = mime
            for part in form.parts {
                guard let mimePart = curl_mime_addpart(mime) else {
                    throw NetworkError(.transport, "libcurl could not add a MIME part")
                }
                try check(curl_mime_name(mimePart, part.name))
                switch part.content {
                case .data(let data):
                    let code = data.withUnsafeBytes { raw -> CURLcode in
                        // curl_mime_data copies the bytes; an empty part needs a valid pointer.
                        guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self), raw.count > 0 else {
                            return curl_mime_data(mimePart, "", 0)
                        }
                        return curl_mime_data(mimePart, base, raw.count)
                    }
                    try check(code)
                case .file(let url):
                    let code = url.path.withCString { curl_mime_filedata(mimePart, $0) }
                    try check(code)
                }
                // curl_mime_filedata sets the file name from the path; the part's own wins.
                if let fileName = part.fileName { try check(curl_mime_filename(mimePart, fileName)) }
                if let mimeType = part.mimeType { try check(curl_mime_type(mimePart, mimeType)) }
            }
            try check(ccurl_easy_setopt_mime(handle, CURLOPT_MIMEPOST, mime))
            if method != .post { try set(CURLOPT_CUSTOMREQUEST, method.rawValue) }
        }
    }

    private func configureHeaders(handle: UnsafeMutableRawPointer, defaults: CurlDefaultHeaders) throws(NetworkError) {
        // libcurl sends `Expect: 100-continue` with a file, a form and an in-memory body above
        // 1 MiB, then waits up to a second for `100 Continue`, which some servers never send:
        // the body goes straight away instead ("Expect:" removes the field). Smaller in-memory
        // bodies never get one, so they keep the shared list (no list to build per request).
        let sendsBodyWithoutExpect: Bool
        switch request.body {
        case .none: sendsBodyWithoutExpect = false
        case .data(let data): sendsBodyWithoutExpect = data.count > CurlTransfer.expectThreshold
        case .file, .multipart: sendsBodyWithoutExpect = true
        }
        let removesExpect = sendsBodyWithoutExpect && !request.headers.contains("Expect")
        guard !request.headers.isEmpty || removesExpect || resumeOffset > 0 else {
            // The common case: the engine's shared list, with no list of our own to build.
            guard let shared = defaults.sharedList else { throw Self.headerListAllocationFailure }
            headerList = nil
            try check(ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, shared))
            return
        }
        var list: UnsafeMutablePointer<curl_slist>?
        func append(_ line: String) throws(NetworkError) {
            guard let appended = curl_slist_append(list, line) else {
                curl_slist_free_all(list)
                throw Self.headerListAllocationFailure
            }
            list = appended
        }
        for field in request.headers {
            // "Name;" is libcurl's syntax for a header with an empty value ("Name:" would remove it).
            try append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        if removesExpect { try append("Expect:") }
        if resumeOffset > 0 {
            try append("Range: bytes=\(resumeOffset)-")
            if let resumeValidator { try append("If-Range: \(resumeValidator)") }
        }
        for field in defaults.fields where !request.headers.contains(field.name) { try append(field.line) }
        headerList = list
        // Always set: a reused handle must not keep the previous request's list.
        try check(ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list))
    }

    /// The body size above which libcurl adds `Expect: 100-continue` to an in-memory body
    /// (its `EXPECT_100_THRESHOLD`).
    static let expectThreshold = 1024 * 1024

    private static let headerListAllocationFailure = NetworkError(.transport, "libcurl could not allocate the header list")

    private func configureDownload() throws(NetworkError) {
        guard request.download != nil else { return }
        // A larger receive buffer halves the callbacks for big files (see the benchmark).
        try set(CURLOPT_BUFFERSIZE, 512 * 1024)
    }

    /// For a resumed download with a partial file: its length (sent as `Range: bytes=N-`) and
    /// its validator (sent as `If-Range`). The range is asked for in a header of our own, not
    /// with `CURLOPT_RESUME_FROM_LARGE`: libcurl then failed a server that ignores ranges
    /// (curl 33) instead of letting its 200 rewrite the file, and the answer is checked here
    /// (``openDownloadFile(_:)``, ``result(for:)``).
    private func prepareResume() {
        guard let download = request.download, download.resumesPartialFile else { return }
        var status = stat()
        guard stat(download.destination.path, &status) == 0, status.st_size > 0 else { return }
        resumeOffset = Int64(status.st_size)
        resumeValidator = CurlTransfer.storedValidator(ofFileAt: download.destination.path)
    }

    /// The extended attribute that keeps a resumable download's validator on its file: it
    /// goes where the file goes (a rename keeps it) and with it (no sidecar left behind).
    static let validatorAttribute = "user.chain.validator"

    /// The validator stored on the file, when it has one that is safe to send as a field value.
    static func storedValidator(ofFileAt path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = getxattr(path, validatorAttribute, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let bytes = buffer.prefix(count)
        // Written by us, but it is outside input: printable ASCII only, so it cannot inject a line.
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The validator of the response being written: a strong `ETag` (a weak one may not be
    /// sent in `If-Range`), else `Last-Modified`.
    private func responseValidator() -> String? {
        if let tag = headerValue("ETag"), !tag.hasPrefix("W/"), !tag.isEmpty { return tag }
        return headerValue("Last-Modified").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The first byte position of a `Content-Range: bytes first-last/length` answer, or the
    /// length of a `bytes */length` one (`nil` when absent or not of that form).
    private func contentRange() -> (first: Int64?, length: Int64?)? {
        guard let value = headerValue("Content-Range"), value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard spec.count == 2 else { return nil }
        let first = spec[0] == "*" ? nil : spec[0].split(separator: "-").first.flatMap { Int64($0) }
        return (first, Int64(spec[1]))
    }

    /// Whether a resumed download's 416 says the partial file is already the whole
    /// representation (`Content-Range: bytes */N` with N its length).
    private var resumedFileIsComplete: Bool {
        resumeOffset > 0 && head.statusCode == 416 && contentRange()?.length == resumeOffset
    }

    // MARK: libcurl callbacks (loop thread)

    private func didReceiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        // The body of a redirect the engine will follow belongs to no one (libcurl's own
        // following skipped it too): it is neither kept nor counted against the limit.
        if isDiscardingBody { return bytes.count }
        if receivedBytes == 0, RedirectRule.follows(head.statusCode), case .follow = request.redirectPolicy,
           headerValue("Location") != nil {
            isDiscardingBody = true
            return bytes.count
        }
        let count = Int64(bytes.count)
        // Only a 2xx body goes to the download's file, under its own limit (nil: none).
        let download = (200..<300).contains(head.statusCode) ? request.download : nil
        let limit = download == nil ? request.maximumResponseSize : download?.maximumSize
        // At the first chunk libcurl has parsed Content-Length (-1 when absent): a body announced
        // larger than the limit is refused before any of it is kept. The check lives here, not in
        // CURLOPT_MAXFILESIZE, because libcurl applies that to every head: a HEAD or a 304 for a
        // large resource, whose Content-Length announces no body, failed with it.
        let announced = receivedBytes == 0 ? info(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T) : -1
        if let limit, receivedBytes + max(count, announced) > limit {
            exceededSizeLimit = true
            return 0  // makes libcurl abort with CURLE_WRITE_ERROR
        }
        receivedBytes += count
        if let download { return writeDownload(bytes, to: download) }
        // No header lookup for the reserve, and no flag to keep: the length is read above.
        if announced > reservedBodyCapacity {
            // Trust Content-Length only up to the limit, so a lying server cannot make us allocate.
            body.reserveCapacity(Int(min(announced, request.maximumResponseSize, 64 * 1024 * 1024)))
        }
        body.append(bytes.assumingMemoryBound(to: UInt8.self))
        return bytes.count
    }

    private func writeDownload(_ bytes: UnsafeRawBufferPointer, to download: DownloadOptions) -> Int {
        if !downloadStarted {
            downloadStarted = true
            guard openDownloadFile(download) else { return 0 }
        }
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return 0 }
            let written = write(downloadFD, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                fileError = "cannot write \(download.destination.path): \(String(cString: strerror(errno)))"
                return 0
            }
            offset += written
        }
        return bytes.count
    }

    /// Opens the destination: appending when a resumed request got a `206` that starts where
    /// the partial file ends, from scratch otherwise (a `200` rewrites the file). A `206` that
    /// starts elsewhere is refused (``failure``), the partial file left as it was. A
    /// resumable download's file keeps its response's validator for the next attempt.
    private func openDownloadFile(_ download: DownloadOptions) -> Bool {
        let appending = resumeOffset > 0 && head.statusCode == 206
        if appending {
            let first = contentRange()?.first ?? nil
            guard first == resumeOffset else {
                let start = first.map { "at byte \($0)" } ?? "without a byte range"
                failure = NetworkError(.invalidResponse, "the server resumed \(download.destination.path) \(start), not at \(resumeOffset) where the partial file ends; the file was left as it was",
                                       response: partialResponse())
                return false
            }
        }
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC)
        downloadFD = open(download.destination.path, flags, 0o644)
        if downloadFD < 0 {
            fileError = "cannot open \(download.destination.path): \(String(cString: strerror(errno)))"
            return false
        }
        if download.resumesPartialFile {
            // Best effort: on a file system without extended attributes the next attempt
            // resumes without `If-Range`.
            if let validator = responseValidator() {
                _ = fsetxattr(downloadFD, CurlTransfer.validatorAttribute, validator, validator.utf8.count, 0)
            } else if !appending {
                _ = fremovexattr(downloadFD, CurlTransfer.validatorAttribute)
            }
        }
        return true
    }

    private func readUpload(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while true {
            let count = read(uploadFD, buffer, capacity)
            if count >= 0 { return count }
            if errno == EINTR { continue }
            fileError = "cannot read the upload file: \(String(cString: strerror(errno)))"
            return Int(CURL_READFUNC_ABORT)
        }
    }

    private func didProgress(dlTotal: curl_off_t, dlNow: curl_off_t, ulTotal: curl_off_t, ulNow: curl_off_t) -> Int32 {
        // A cancel is not acted on here but by the engine's cancel command, so that it takes
        // effect in the order it was given: aborting here, in the `perform` before the loop
        // drains its commands, freed a per-host slot ahead of requests sent before the cancel.
        // libcurl calls this on every pass of its loop (at least once a second, the loop's
        // longest wait with transfers in flight); read the clock only for the idle timeout or
        // when a count grew.
        let download = Int64(dlNow), upload = Int64(ulNow)
        let grew = download > (lastDownloadReport?.bytes ?? 0) || upload > (lastUploadReport?.bytes ?? 0)
        guard idleSince > 0 || (grew && progressHandler != nil) else { return 0 }
        let now = DispatchTime.now().uptimeNanoseconds
        if idleSince > 0, hasBeenIdle(download: download, upload: upload, at: now) {
            isIdleTimedOut = true
            return 1  // libcurl closes the connection; `result(for:)` reports the idle timeout
        }
        guard grew, progressHandler != nil else { return 0 }
        if let progress = report(.download, now: download, total: Int64(dlTotal), at: now, force: false) {
            send(progress)
        }
        if let progress = report(.upload, now: upload, total: Int64(ulTotal), at: now, force: false) {
            send(progress)
        }
        return 0
    }

    /// Whether no byte moved for longer than the idle timeout: the clock starts when a request is
    /// about to be sent (`willSendRequest`), and any byte of a response head, a body or an
    /// upload restarts it (the head's bytes as the header callback counted them).
    private func hasBeenIdle(download: Int64, upload: Int64, at now: UInt64) -> Bool {
        let head = headBytes
        guard download == idleCounts.download, upload == idleCounts.upload, head == idleCounts.head else {
            idleCounts = (download, upload, head)
            idleSince = now
            return false
        }
        return now &- idleSince > idleLimit
    }

    /// libcurl's pre-request callback: the connection is chosen (or made) and nothing of the
    /// request is sent yet. Returns `CURL_PREREQFUNC_ABORT` to stop the transfer, which makes
    /// libcurl close an HTTP/1 connection (`multi_done` treats an abort by callback as
    /// premature) before a byte of the request reached it.
    ///
    /// - A second send for the same redirect hop is libcurl re-sending a request whose reused
    ///   connection died: allowed once for an idempotent method or a request with an
    ///   `Idempotency-Key` (RFC 9110 §9.2.2), never otherwise — it may have reached the server.
    ///   The one re-send is made by the engine on a fresh connection, not on the pooled one
    ///   libcurl picked, which may be as dead as the first.
    /// - A reused HTTP/1 connection with bytes waiting has a response nobody asked for on it
    ///   (a smuggled one would answer this request): the transfer stops, and the engine starts
    ///   it again on a fresh connection (`restartOnFreshConnection`).
    private func willSendRequest(localPort: Int32, remotePort: Int32) -> Int32 {
        let proceed = Int32(CURL_PREREQFUNC_OK), abort = Int32(CURL_PREREQFUNC_ABORT)
        guard let easy, !isCancelRequested.load(ordering: .relaxed) else { return abort }
        foundStaleConnection = false  // a restarted transfer's earlier finding
        needsFreshResend = false
        let connects = longInfo(CURLINFO_NUM_CONNECTS)
        let isReusedConnection = connects == connectsBeforeSend
        connectsBeforeSend = connects
        if !isReusedConnection {
            // The new connection's socket, for when the connection is reused.
            _ = ccurl_remember_connection_socket(openedSockets.last, openedSockets.first, localPort, remotePort)
        }
        if sends > 0 {
            let hop = longInfo(CURLINFO_REDIRECT_COUNT)
            if hop == hopOfLastSend {
                resends += 1
                if resends > 1 || !(request.method.isIdempotent || request.headers.contains("Idempotency-Key")) {
                    refusedResend = true
                    return abort
                }
                // libcurl chose another pooled connection for the one re-send, which may be as dead
                // as the first (a server that stopped closes them all): the engine sends it
                // again itself, on a fresh connection.
                if !hasRestarted {
                    needsFreshResend = true
                    return abort
                }
            }
            hopOfLastSend = hop
        }
        sends += 1
        if isReusedConnection, isHTTP1Connection(easy),
           ccurl_socket_has_unread_bytes(ccurl_connection_socket(localPort, remotePort)) == 1 {
            foundStaleConnection = true
            return abort
        }
        if idleLimit > 0 {
            idleSince = DispatchTime.now().uptimeNanoseconds
            idleCounts = (-1, -1, -1)  // the first progress call records the counts it sees
        }
        return proceed
    }

    /// Whether the connection speaks HTTP/1, where a byte nobody asked for is never legitimate.
    /// An HTTP/2 connection may hold other streams' frames, PINGs and SETTINGS at any time, so it
    /// is never checked: with prior knowledge, or when ALPN chose `h2` — and, on TLS, when ALPN
    /// cannot be read (another TLS backend), since closing busy HTTP/2 connections would be worse.
    /// A plain `http` request of ``HTTPVersionPreference/automatic`` speaks HTTP/1.1.
    private func isHTTP1Connection(_ easy: UnsafeMutableRawPointer) -> Bool {
        switch request.httpVersion {
        case .http2PriorKnowledge: false
        case .http1_1: true
        case .automatic: !target.isHTTPS || ccurl_connection_alpn_is_h2(easy) == 0
        }
    }

    /// Whether the transfer stopped before a send — on a stale reused connection, or at
    /// libcurl's re-send of a request whose reused connection died — so the engine may start it
    /// again (once) on a fresh connection; the handle's last result is then meaningless.
    var restartsOnFreshConnection: Bool {
        (foundStaleConnection || needsFreshResend) && !hasRestarted && sends == 1 && hopOfLastSend == 0
            && !isCancelRequested.load(ordering: .relaxed)
    }

    /// Prepares the transfer to be added again on a fresh connection (the stale one is closed
    /// already). Nothing was received, so only the counts of the pre-request callback start over.
    /// - Returns: `false` when libcurl refuses the option; the transfer then fails.
    func restartOnFreshConnection() -> Bool {
        guard let easy, ccurl_easy_setopt_long(easy, CURLOPT_FRESH_CONNECT, 1) == CURLE_OK else { return false }
        hasRestarted = true
        startSendCountsOver()
        return true
    }

    /// Forgets the pre-request callback's counts, for a new perform of this transfer (a fresh
    /// connection, or a redirect's next hop): libcurl's own counts start over with it.
    private func startSendCountsOver() {
        sends = 0
        resends = 0
        hopOfLastSend = 0
        connectsBeforeSend = 0
        openedSockets = (-1, -1)
        idleSince = 0
    }

    /// The report to send when the count grew and 50 ms have passed since the last one — or
    /// since the start, for the first — (or `force`), recorded as sent; `nil` when there is
    /// nothing to send.
    private func report(_ direction: TransferProgress.Direction, now bytes: Int64, total: Int64, at time: UInt64,
                        force: Bool) -> TransferProgress? {
        guard progressHandler != nil else { return nil }
        let last = direction == .download ? lastDownloadReport : lastUploadReport
        if let last, bytes <= last.bytes { return nil }
        if !force, bytes == 0 { return nil }
        if !force, time &- (last?.time ?? progressStart) < 50_000_000 { return nil }
        if direction == .download { lastDownloadReport = (bytes, time) } else { lastUploadReport = (bytes, time) }
        return TransferProgress(direction: direction, completedBytes: bytes, totalBytes: total > 0 ? total : nil)
    }

    private func send(_ progress: TransferProgress) {
        guard let progressHandler else { return }
        callbackQueue.async { progressHandler(progress) }
    }

    // MARK: Finishing (loop thread)

    /// Builds the result from the handle's final state. Call before `cleanUp`.
    func result(for code: CURLcode) -> Result<HTTPResponse, NetworkError> {
        if isCancelRequested.load(ordering: .relaxed) {
            return .failure(NetworkError(.cancelled, "the request was cancelled"))
        }
        if let violation = head.violation {
            return .failure(NetworkError(.invalidResponse,
                                         "the reply from \(request.url.host ?? request.url.absoluteString) is refused: \(violation.reason)",
                                         curlCode: Int(code.rawValue), curlMessage: errorMessage, response: partialResponse()))
        }
        if let failure { return .failure(failure) }
        if isIdleTimedOut {
            return .failure(CurlError.idleTimeout(request: request, response: head.statusCode > 0 ? partialResponse() : nil))
        }
        if refusedResend || needsFreshResend {
            return .failure(CurlError.resendRefused(request: request))
        }
        if foundStaleConnection {
            return .failure(CurlError.staleConnection(request: request))
        }
        if exceededSizeLimit {
            let limit = request.download.map { $0.maximumSize ?? 0 } ?? request.maximumResponseSize
            return .failure(NetworkError(.responseTooLarge, "the response body exceeded the limit of \(limit) bytes",
                                         curlCode: Int(code.rawValue), response: partialResponse()))
        }
        if let fileError {
            return .failure(NetworkError(.fileIO, fileError, curlCode: Int(code.rawValue)))
        }
        guard code == CURLE_OK else {
            // Whether any byte of a response had arrived: a status line was recorded, or libcurl
            // saw its first byte (a status line too long to hand over).
            let responseArrived = head.statusCode > 0 || info(CURLINFO_STARTTRANSFER_TIME_T) > 0
            return .failure(CurlError.makeError(code: code, message: errorMessage, request: request,
                                                 response: head.statusCode > 0 ? partialResponse() : nil,
                                                 responseArrived: responseArrived, proxyRefusal: proxyRefusal()))
        }
        // libcurl framed the body by the status it read; one read otherwise here (`HTTP/1.1
        // \t500`: libcurl skips the tab, the line has no code where RFC 9112 puts one) would
        // deliver a status the body was not framed for. One getinfo per transfer.
        let framedStatus = longInfo(CURLINFO_RESPONSE_CODE)
        guard framedStatus == head.statusCode else {
            return .failure(NetworkError(.invalidResponse,
                                         "the reply from \(request.url.host ?? request.url.absoluteString) is refused: its status line reads as \(framedStatus) to libcurl but as \(head.statusCode) here",
                                         response: partialResponse()))
        }
        var response = partialResponse()
        if let download = request.download, resumedFileIsComplete {
            // Nothing is missing: the download succeeds with the file as it is (see
            // ``DownloadOptions/resumesPartialFile``).
            response.statusCode = 200
            response.body = Data()
            response.fileURL = download.destination
        } else if let download = request.download, (200..<300).contains(head.statusCode) {
            if !downloadStarted {
                // An empty body: the file must still exist (and be empty) afterwards.
                downloadStarted = true
                if !openDownloadFile(download) {
                    return .failure(failure ?? NetworkError(.fileIO, fileError ?? "cannot create \(download.destination.path)"))
                }
            }
            response.fileURL = download.destination
        }
        if progressHandler != nil {
            let now = DispatchTime.now().uptimeNanoseconds
            let downloaded = info(CURLINFO_SIZE_DOWNLOAD_T)
            let uploaded = info(CURLINFO_SIZE_UPLOAD_T)
            if uploaded > 0, let progress = report(.upload, now: uploaded, total: uploaded, at: now, force: true) {
                finalReports.append(progress)
            }
            if let progress = report(.download, now: downloaded, total: downloaded, at: now, force: true) {
                finalReports.append(progress)
            }
        }
        return .success(response)
    }

    private var errorMessage: String { String(cString: errorBuffer) }

    /// The status of a proxy's answer to `CONNECT` that was no `2xx`, with the proxy's address
    /// (the peer libcurl talked to); `nil` without a proxy or when the tunnel was made. Asked
    /// for only when a transfer failed.
    private func proxyRefusal() -> (status: Int, proxy: String)? {
        let status = longInfo(CURLINFO_HTTP_CONNECTCODE)
        guard status >= 300, let easy else { return nil }
        var address: UnsafePointer<CChar>?
        let ip = ccurl_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &address) == CURLE_OK
            ? address.map { String(cString: $0) } ?? "" : ""
        let port = longInfo(CURLINFO_PRIMARY_PORT)
        return (status, ip.isEmpty ? "(from the environment)" : ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)")
    }

    private func partialResponse() -> HTTPResponse {
        // The hops before this one (redirects the engine followed) count into `redirect`,
        // `total` and `newConnections`; the phases are this hop's, as libcurl reported them.
        let timings = TransferTimings(
            nameLookup: seconds(CURLINFO_NAMELOOKUP_TIME_T), connect: seconds(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: seconds(CURLINFO_APPCONNECT_TIME_T), preTransfer: seconds(CURLINFO_PRETRANSFER_TIME_T),
            firstByte: seconds(CURLINFO_STARTTRANSFER_TIME_T), redirect: earlierHopsTime,
            total: earlierHopsTime + seconds(CURLINFO_TOTAL_TIME_T),
            newConnections: earlierHopsConnections + longInfo(CURLINFO_NUM_CONNECTS), redirectCount: redirectCount)
        // The status line names the version (libcurl writes "HTTP/2 200" and "HTTP/3 200" for
        // those protocols); libcurl's own answer is asked for only when it does not.
        let version = head.httpVersion != .unknown ? head.httpVersion : reportedVersion()
        // The headers are parsed from the recorded lines in the completion's block
        // (`withHeaders`), on the callback thread.
        return HTTPResponse(statusCode: head.statusCode, body: body, url: request.url, httpVersion: version,
                            timings: timings)
    }

    /// The HTTP version libcurl reports for the last response.
    private func reportedVersion() -> HTTPVersion {
        switch longInfo(CURLINFO_HTTP_VERSION) {
        case CURL_HTTP_VERSION_1_0: .http1_0
        case CURL_HTTP_VERSION_1_1: .http1_1
        case CURL_HTTP_VERSION_2_0: .http2
        case CURL_HTTP_VERSION_3: .http3
        default: .unknown
        }
    }

    /// Delivers the result on the callback queue, once. Later calls are ignored.
    func complete(with result: Result<HTTPResponse, NetworkError>) {
        guard let block = completionBlock(for: result) else { return }
        callbackQueue.async(execute: block)
    }

    /// The block that delivers the result on ``callbackQueue``, counted as posted; `nil` when
    /// the transfer already finished. The caller must run it on ``callbackQueue`` (the engine
    /// batches the blocks of one loop pass that share a queue).
    func completionBlock(for result: Result<HTTPResponse, NetworkError>) -> (@Sendable () -> Void)? {
        guard !isFinished else { return nil }
        isFinished = true
        didFinish?()
        outcome = result
        handoff.completionPosted()
        // A block that captures only the transfer has the transfer itself as its context, so
        // the loop thread allocates no box for the callback thread to free (see
        // `typicalBodyCapacity` for why that matters).
        return { [self] in deliver() }
    }

    /// Runs the completion (and the closing progress reports) on the callback queue, then drops
    /// the response's buffers here rather than on the loop thread.
    private func deliver() {
        handoff.completionStarted()
        // `outcome` is set before the block is posted; the fallback keeps the completion
        // called exactly once even if that ever changed.
        let result = outcome ?? .failure(NetworkError(.transport, "the transfer ended without a result"))
        if let progressHandler {
            for progress in finalReports { progressHandler(progress) }
        }
        let recordedHead = head.bytes
        outcome = nil
        head = CurlResponseHeadRecorder()
        body = Data()
        finalReports = []
        completion(CurlTransfer.withHeaders(recordedHead, in: result))
    }

    /// `result` with the fields of `recordedHead` on its response — the success's, or the
    /// one a failure carries. Every response a transfer builds comes from its recorded head
    /// (``partialResponse()``), which the loop thread leaves unparsed.
    private static func withHeaders(_ recordedHead: [UInt8],
                                    in result: Result<HTTPResponse, NetworkError>) -> Result<HTTPResponse, NetworkError> {
        guard !recordedHead.isEmpty else { return result }
        switch result {
        case .success(var response):
            response.headers = CurlResponseHeadRecorder.headers(in: recordedHead)
            return .success(response)
        case .failure(var error):
            guard error.response != nil else { return result }
            error.response?.headers = CurlResponseHeadRecorder.headers(in: recordedHead)
            return .failure(error)
        }
    }

    /// Releases every C resource and the retain taken in `configure`. The easy handle must
    /// already be out of the multi handle; it is returned for reuse (after `curl_easy_reset`).
    func cleanUp() -> UnsafeMutableRawPointer? {
        let handle = easy
        easy = nil
        if let headerList { curl_slist_free_all(headerList) }
        headerList = nil
        if let mime { curl_mime_free(mime) }
        mime = nil
        if uploadFD >= 0 { close(uploadFD) }
        uploadFD = -1
        if downloadFD >= 0 { close(downloadFD) }
        downloadFD = -1
        retainedSelf?.release()
        retainedSelf = nil
        return handle
    }

    // MARK: Helpers

    private func set(_ option: CURLoption, _ value: Int) throws(NetworkError) {
        guard let easy else { return }
        try check(ccurl_easy_setopt_long(easy, option, value))
    }

    private func set(_ option: CURLoption, off value: curl_off_t) throws(NetworkError) {
        guard let easy else { return }
        try check(ccurl_easy_setopt_off_t(easy, option, value))
    }

    private func set(_ option: CURLoption, _ value: String) throws(NetworkError) {
        guard let easy else { return }
        // `withCString` lends a native string's own NUL-terminated bytes (libcurl copies them);
        // passing the String itself copied it into a new array first, once per request for the URL.
        try check(value.withCString { ccurl_easy_setopt_string(easy, option, $0) })
    }

    private func set(_ option: CURLoption, pointer: UnsafeMutableRawPointer) throws(NetworkError) {
        guard let easy else { return }
        try check(ccurl_easy_setopt_pointer(easy, option, pointer))
    }

    private func check(_ code: CURLcode) throws(NetworkError) {
        guard code == CURLE_OK else {
            throw CurlError.makeError(code: code, message: String(cString: curl_easy_strerror(code)), request: request, response: nil)
        }
    }

    private func longInfo(_ info: CURLINFO) -> Int {
        guard let easy else { return 0 }
        var value = 0
        return ccurl_easy_getinfo_long(easy, info, &value) == CURLE_OK ? value : 0
    }

    private func info(_ info: CURLINFO) -> Int64 {
        guard let easy else { return 0 }
        var value: curl_off_t = 0
        return ccurl_easy_getinfo_off_t(easy, info, &value) == CURLE_OK ? Int64(value) : 0
    }

    private func seconds(_ info: CURLINFO) -> TimeInterval {
        TimeInterval(self.info(info)) / 1_000_000
    }

    /// A libcurl time limit in milliseconds: 0 (none) for 0, a non-finite value or one too
    /// large for libcurl (NaN and negative values are refused earlier, by ``Timeouts/validate()``).
    private func milliseconds(_ seconds: TimeInterval) -> Int {
        Timeouts.milliseconds(seconds)
    }
}
