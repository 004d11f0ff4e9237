import CCurl
import Dispatch
import HTTPCore

// The pre-request callback (loop thread): which requests may go out again, on which
// connection, and the restart on a fresh one.

extension CurlTransfer {
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
    func willSendRequest(localPort: Int32, remotePort: Int32) -> Int32 {
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
                if resends > 1 || request.body.stream != nil
                    || !(request.method.isIdempotent || request.headers.contains("Idempotency-Key")) {
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
        // An `http` URL that HSTS may have sent over TLS is asked too (plain, the answer is -1).
        case .automatic: (!target.isHTTPS && !mayBeUpgradedToTLS) || ccurl_connection_alpn_is_h2(easy) == 0
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

    /// Forgets the pre-request callback's counts, for a new perform of this transfer on a fresh
    /// connection: libcurl's own counts start over with it.
    func startSendCountsOver() {
        sends = 0
        resends = 0
        hopOfLastSend = 0
        connectsBeforeSend = 0
        openedSockets = (-1, -1)
        idleSince = 0
    }
}
