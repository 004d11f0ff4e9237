import CCurl
import Foundation
import HTTPCore

// Following a redirect, one hop at a time (loop thread, between two hops).

extension CurlTransfer {
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
        do throws(NetworkError) {
            var current = request
            if target.unixSocketPath != nil, let sent = URL(string: target.urlString) {
                // libcurl's URL parser knows no `+unix` scheme: the `Location` is resolved
                // against the URL libcurl was given (`http://localhost/…`).
                current.url = sent
            }
            // A server must not be able to send a request into a local socket (a daemon's API).
            let trimmed = location.drop { $0 == " " || $0 == "\t" }.lowercased()
            if trimmed.hasPrefix("http+unix:") || trimmed.hasPrefix("https+unix:") {
                throw NetworkError(.unsupportedScheme, "a redirect may not name a Unix socket: \(location.prefix(80))")
            }
            next = try RedirectRule.nextRequest(after: head.statusCode, location: location, from: current)
            if let scheme = next.url.scheme?.lowercased(), scheme.hasSuffix("+unix") {
                throw NetworkError(.unsupportedScheme, "a redirect may not name a Unix socket: \(scheme)://")
            }
            let plainNext = try TransferTarget(url: next.url)
            // The socket stands for the URL's host: a hop to another origin leaves it.
            if let socket = target.unixSocketPath, try TransferTarget(url: current.url).hostKey == plainNext.hostKey {
                next.unixSocketPath = socket
                nextTarget = try TransferTarget(url: next.url, unixSocketPath: socket)
            } else {
                next.unixSocketPath = nil
                nextTarget = plainNext
            }
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
}
