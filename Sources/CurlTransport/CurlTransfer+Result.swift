import CCurl
import Dispatch
import Foundation
import HTTPCore

// Building the result from the handle's final state (loop thread).

extension CurlTransfer {
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
                                                 responseArrived: responseArrived, proxyRefusal: proxyRefusal(),
                                                 proxy: code == CURLE_PROXY || code == CURLE_COULDNT_CONNECT
                                                     || code == CURLE_COULDNT_RESOLVE_PROXY ? proxyInUse() : nil,
                                                 proxyRejectedCredentials: code == CURLE_PROXY
                                                     && longInfo(CURLINFO_PROXY_ERROR) == Int(CURLPX_USER_REJECTED.rawValue)))
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
        if head.statusCode == 407, !target.isHTTPS, request.proxy.kind != .socks5, let proxy = proxyInUse() {
            // Only a proxy answers 407 (RFC 9110 §15.5.8): this is the proxy's answer to a
            // request sent through it in clear text, not the origin's. (Inside an `https`
            // tunnel the answers are the origin's; a refused `CONNECT` is handled above.)
            return .failure(CurlError.proxyAuthentication(proxy: proxy, request: request, response: response))
        }
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
        if request.proxy.kind != .environment { return (status, request.proxy.description) }
        var address: UnsafePointer<CChar>?
        let ip = ccurl_easy_getinfo_string(easy, CURLINFO_PRIMARY_IP, &address) == CURLE_OK
            ? address.map { String(cString: $0) } ?? "" : ""
        let port = longInfo(CURLINFO_PRIMARY_PORT)
        return (status, ip.isEmpty ? "(from the environment)" : ip.contains(":") ? "[\(ip)]:\(port)" : "\(ip):\(port)")
    }

    /// The proxy this transfer went through, for messages: the request's own, or the
    /// environment variable libcurl reads for the scheme (without its credentials); `nil` when
    /// it went direct — no proxy, a Unix socket (libcurl then uses none), or a host on the
    /// bypass list (the proxy's own, or `no_proxy`). Asked for only on a failure or a 407.
    func proxyInUse() -> String? {
        guard target.unixSocketPath == nil else { return nil }
        let host = (request.url.host ?? "").lowercased()
        switch request.proxy.kind {
        case .direct:
            return nil
        case .http, .https, .socks5:
            return Proxy.bypassList(request.proxy.bypass, matches: host) ? nil : request.proxy.description
        case .environment:
            var bypass = ""
            for name in ["no_proxy", "NO_PROXY"] where bypass.isEmpty {
                if let value = getenv(name) { bypass = String(cString: value) }
            }
            if Proxy.bypassList(bypass.split(separator: ",").map(String.init), matches: host) { return nil }
            let names = target.isHTTPS ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
                                       : ["http_proxy", "all_proxy", "ALL_PROXY"]
            for name in names {
                if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty {
                    // curl also takes a proxy without a scheme (`user:password@host:3128`).
                    guard !value.contains("://") else { return CurlError.withoutURLCredentials(value) }
                    return value.lastIndex(of: "@").map { String(value[value.index(after: $0)...]) } ?? value
                }
            }
            return nil
        }
    }

    func partialResponse() -> HTTPResponse {
        // One hop: the pipeline adds the earlier hops of a redirect chain to `redirect`,
        // `total` and `newConnections`.
        let timings = TransferTimings(
            nameLookup: seconds(CURLINFO_NAMELOOKUP_TIME_T), connect: seconds(CURLINFO_CONNECT_TIME_T),
            tlsHandshake: seconds(CURLINFO_APPCONNECT_TIME_T), preTransfer: seconds(CURLINFO_PRETRANSFER_TIME_T),
            firstByte: seconds(CURLINFO_STARTTRANSFER_TIME_T), total: seconds(CURLINFO_TOTAL_TIME_T), newConnections: longInfo(CURLINFO_NUM_CONNECTS))
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
}
