import CCurl
import Dispatch
import Foundation
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

// Setting up a handle (loop thread): the baseline every transfer of a client shares, with the
// libcurl callbacks that lead to the transfer, and the options of one request.

extension CurlTransfer {
    /// Sets the options that are the same for every transfer of a client, once per handle
    /// (after creation or `curl_easy_reset`): libcurl copies strings on every setopt, and
    /// re-setting these per request showed up in profiles.
    ///
    /// The `User-Agent` line is not among them: it comes with every request's header list
    /// (see ``CurlDefaultHeaders``).
    /// - Parameters:
    ///   - resolveList: the client's DNS overrides (`CURLOPT_RESOLVE`), if any.
    ///   - hsts: the client's HSTS store, if it has one: every handle reads its entries (the
    ///     first transfer loads them into the share handle).
    static func applyBaseline(to handle: UnsafeMutableRawPointer, share: UnsafeMutableRawPointer?,
                              resolveList: UnsafeMutablePointer<curl_slist>?, hsts: CurlHSTSStore?) -> CURLcode {
        let codes: [CURLcode] = [
            resolveList.map { ccurl_easy_setopt_slist(handle, CURLOPT_RESOLVE, $0) } ?? CURLE_OK,
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
            // After the share: turned on before it, HSTS would get a cache of the handle's own.
            hsts?.apply(to: handle) ?? CURLE_OK,
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
                    let line = UnsafeRawBufferPointer(start: buffer, count: size * count)
                    guard transfer.head.record(line, requestsSent: {
                        CurlResponseHeadRecorder.RequestsSent(redirects: transfer.longInfo(CURLINFO_REDIRECT_COUNT),
                                                              bytes: transfer.longInfo(CURLINFO_REQUEST_SIZE))
                    }) else { return 0 }
                    if transfer.streamsResponse, let first = line.first, first == 0x0D || first == 0x0A {
                        transfer.headDidEnd()
                    }
                    return size * count
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
        // Only a tunnel's `CONNECT` gets the User-Agent this way (libcurl sends the proxy none
        // of the origin's lines there); a request forwarded in clear text carries the origin's
        // lines and would repeat it. Set on every transfer: a clean handle keeps options.
        try check(ccurl_easy_setopt_slist(handle, CURLOPT_PROXYHEADER, target.isHTTPS ? defaultHeaders.proxyList : nil))
        try configureRoute()
        try configureAuthentication()
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

    /// The proxy and the Unix socket. With neither set, nothing is touched: the environment's
    /// proxy variables apply, as libcurl reads them.
    private func configureRoute() throws(NetworkError) {
        if let socketPath = target.unixSocketPath { try set(CURLOPT_UNIX_SOCKET_PATH, socketPath) }
        let proxy = request.proxy
        guard let proxyURL = proxy.curlProxyURL else { return }
        // "" turns every proxy off, the environment's included.
        try set(CURLOPT_PROXY, proxyURL)
        guard proxy.kind != .direct else { return }
        if !proxy.bypass.isEmpty { try set(CURLOPT_NOPROXY, proxy.bypass.joined(separator: ",")) }
        if let credentials = proxy.credentials {
            try set(CURLOPT_PROXYUSERNAME, credentials.user)
            try set(CURLOPT_PROXYPASSWORD, credentials.password)
            if proxy.kind != .socks5 {
                let scheme: UInt = switch credentials.scheme {
                case .basic: ccurl_auth_basic
                case .digest: ccurl_auth_digest
                case .ntlm: ccurl_auth_ntlm
                case .any: ccurl_auth_any
                }
                try set(CURLOPT_PROXYAUTH, Int(bitPattern: scheme))
            }
        }
        if proxy.kind == .https {
            let tls = proxy.tls
            if tls.allowsInsecureConnections {
                try set(CURLOPT_PROXY_SSL_VERIFYPEER, 0)
                try set(CURLOPT_PROXY_SSL_VERIFYHOST, 0)
            }
            if let caFile = tls.caFile { try set(CURLOPT_PROXY_CAINFO, caFile.path) }
            if let pinned = tls.pinnedPublicKey { try set(CURLOPT_PROXY_PINNEDPUBLICKEY, pinned) }
            if let certificate = tls.clientCertificate { try set(CURLOPT_PROXY_SSLCERT, certificate.path) }
            if let key = tls.clientKey { try set(CURLOPT_PROXY_SSLKEY, key.path) }
            if let password = tls.clientKeyPassword { try set(CURLOPT_PROXY_KEYPASSWD, password) }
        }
    }

    /// The origin's credentials, set as the proxy's are in `configureRoute` (never with
    /// `CURLOPT_UNRESTRICTED_AUTH`: the pipeline follows redirects itself). A handle that
    /// carried them is reset before its next request (`leavesHandleDirty`): libcurl keeps the
    /// user, a Digest nonce and NTLM state on the handle.
    private func configureAuthentication() throws(NetworkError) {
        guard let authentication = request.authentication else { return }
        let scheme: UInt = switch authentication.scheme {
        case .basic: ccurl_auth_basic
        case .digest: ccurl_auth_digest
        case .ntlm: ccurl_auth_ntlm
        case .negotiate: ccurl_auth_negotiate
        case .any: ccurl_auth_any
        }
        try set(CURLOPT_HTTPAUTH, Int(bitPattern: scheme))
        if authentication.scheme == .negotiate {
            // curl's `--negotiate -u :`: libcurl answers a challenge only for a handle with a
            // user; GSS-API takes the identity from the Kerberos credential cache.
            try set(CURLOPT_USERPWD, ":")
        } else {
            try set(CURLOPT_USERNAME, authentication.user)
            try set(CURLOPT_PASSWORD, authentication.password)
        }
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
        case .automatic:
            // The baseline prefers HTTP/2 over TLS. A streamed response goes over HTTP/1.1, where
            // pausing it stops the reads of its own connection: libcurl 7.88 pauses an HTTP/2
            // stream only after buffering what its 32 MiB window let the server send, and a paused
            // stream beside others on its connection stalled after the resume (Docs/Transport.md).
            // A stream body too: its pause is the same mechanism, in the other direction.
            if request.responseStream != nil || request.body.stream != nil {
                try set(CURLOPT_HTTP_VERSION, CURL_HTTP_VERSION_1_1)
            }
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
            try configureUpload(handle: handle, length: curl_off_t(status.st_size))
        case .stream(let stream):
            try stream.start(resume: requestResume ?? {})
            startedBodyStream = true
            // -1: unknown, which libcurl sends chunked over HTTP/1.1.
            try configureUpload(handle: handle, length: curl_off_t(stream.length ?? -1))
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

    /// A body libcurl reads through the read callback (a file or a stream) of `length` bytes
    /// (-1: unknown), with the request's method.
    private func configureUpload(handle: UnsafeMutableRawPointer, length: curl_off_t) throws(NetworkError) {
        try set(CURLOPT_UPLOAD, 1)
        try set(CURLOPT_INFILESIZE_LARGE, off: length)
        try check(ccurl_easy_setopt_pointer(handle, CURLOPT_READDATA, retainedSelf?.toOpaque()))
        try check(ccurl_easy_setopt_data_callback(handle, CURLOPT_READFUNCTION) { buffer, size, count, userdata in
            guard let buffer, let userdata else { return Int(CURL_READFUNC_ABORT) }
            return Unmanaged<CurlTransfer>.fromOpaque(userdata)._withUnsafeGuaranteedRef {
                $0.request.body.stream == nil ? $0.readUpload(into: buffer, capacity: size * count)
                    : $0.readStream(into: buffer, capacity: size * count)
            }
        })
        try set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
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
        case .file, .multipart, .stream: sendsBodyWithoutExpect = true
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
        if request.download != nil {
            // A larger receive buffer halves the callbacks for big files (see the benchmark).
            try set(CURLOPT_BUFFERSIZE, 512 * 1024)
        } else if request.responseStream != nil {
            // Each chunk is one hand-off to the consumer (a thread wake-up when it waits): 64 KiB
            // chunks cut them by four against libcurl's 16 KiB, and keep a paused stream's
            // memory (the buffer, the chunk libcurl holds, its own buffer) within twice the
            // stream's default bound (Docs/Performance/2026-12-02-streaming.md).
            try set(CURLOPT_BUFFERSIZE, CurlTransfer.streamReceiveBuffer)
        }
    }

    /// The receive buffer of a streamed response: 64 KiB.
    static let streamReceiveBuffer = 64 * 1024

    /// Whether the transfer sets its own receive buffer (a download, a stream): its handle is
    /// fresh and is not pooled afterwards.
    var setsReceiveBuffer: Bool { request.download != nil || streamsResponse }

    // MARK: Setting options

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

    /// A libcurl time limit in milliseconds: 0 (none) for 0, a non-finite value or one too
    /// large for libcurl (NaN and negative values are refused earlier, by ``Timeouts/validate()``).
    private func milliseconds(_ seconds: TimeInterval) -> Int {
        Timeouts.milliseconds(seconds)
    }
}
