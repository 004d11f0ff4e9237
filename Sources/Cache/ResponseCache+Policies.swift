import Foundation
import HTTPCore

/// How each policy runs. A stored copy the memory tier holds is served on the caller's thread
/// (``heldLookup(_:)``); every other step runs on the store's serial queue, so the lookups,
/// stores and deliveries of one call happen in a fixed order.
extension ResponseCache {
    func execute(_ run: PolicyRun) {
        if answeredFromHeldCopy(run) { return }
        switch run.policy {
        case .networkOnly:
            // No lookup first, so the transfer starts at once; the key is only needed later.
            fetch(run, run.request) { result, sentAt in
                self.storeIfAllowed(result, run: run, sentAt: sentAt, followsHTTPRules: false)
                run.call.emit(result, isFinal: true)
            }
        case .networkFirst:
            fetch(run, run.request) { result, sentAt in
                if case .failure(let error) = result, error.isTransportFailure, let entry = self.lookup(run) {
                    run.call.emit(.success(entry.response), isFinal: true)
                    return
                }
                self.storeIfAllowed(result, run: run, sentAt: sentAt, followsHTTPRules: false)
                run.call.emit(result, isFinal: true)
            }
        case .fileFirst:
            store.queue.async {
                guard !run.call.isFinished else { return }
                if let entry = self.lookup(run) { run.call.emit(.success(entry.response), isFinal: false) }
                self.fetchAndStore(run)
            }
        case .cacheElseNetwork(let maxAge):
            store.queue.async {
                guard !run.call.isFinished else { return }
                // Infinity means "any stored copy"; a negative or NaN age is a caller's mistake.
                guard !maxAge.isNaN, maxAge >= 0 else {
                    run.call.emit(.failure(NetworkError(.invalidRequest, "cacheElseNetwork(maxAge: \(maxAge)): the age must "
                                                            + "be zero or more seconds")), isFinal: true)
                    return
                }
                // A copy stored "in the future" (the clock moved back) counts as age 0.
                if let entry = self.lookup(run), max(0, self.clock().timeIntervalSince(entry.storedAt)) < maxAge {
                    run.call.emit(.success(entry.response), isFinal: true)
                    return
                }
                self.fetchAndStore(run)
            }
        case .cacheOnly:
            store.queue.async {
                guard !run.call.isFinished else { return }
                if let entry = self.lookup(run) {
                    run.call.emit(.success(entry.response), isFinal: true)
                } else {
                    run.call.emit(.failure(ResponseCache.missError(run.request)), isFinal: true)
                }
            }
        case .http:
            store.queue.async {
                guard !run.call.isFinished else { return }
                self.runHTTP(run)
            }
        }
    }

    private func fetchAndStore(_ run: PolicyRun) {
        fetch(run, run.request) { result, sentAt in
            self.storeIfAllowed(result, run: run, sentAt: sentAt, followsHTTPRules: false)
            run.call.emit(result, isFinal: true)
        }
    }

    /// RFC 9111 for a private cache; the rules themselves are ``CacheStrategy``'s.
    private func runHTTP(_ run: PolicyRun) {
        let request = run.request
        guard request.method == .get || request.method == .head else {
            fetch(run, request) { result, _ in run.call.emit(result, isFinal: true) }
            return
        }
        let entry = lookup(run)
        switch CacheStrategy.decide(method: request.method, requestHeaders: request.headers, stored: entry, now: clock()) {
        case .useStored(let age):
            guard let entry else { return fetchAndStoreHTTP(run, request) }
            run.call.emit(.success(ResponseCache.response(entry, age: age)), isFinal: true)
        case .unsatisfiable:
            run.call.emit(.failure(NetworkError(.cacheMiss, "only-if-cached: no fresh stored response for "
                                                    + "\(request.method) \(request.url.absoluteString)")), isFinal: true)
        case .network:
            fetchAndStoreHTTP(run, request)
        case .revalidate(let conditionalHeaders):
            guard let entry else { return fetchAndStoreHTTP(run, request) }
            var conditional = request
            conditional.headers = request.headers.merging(conditionalHeaders)
            fetch(run, conditional) { result, sentAt in
                guard case .success(let notModified) = result, notModified.statusCode == 304 else {
                    self.storeIfAllowed(result, run: run, sentAt: sentAt, followsHTTPRules: true)
                    run.call.emit(result, isFinal: true)
                    return
                }
                var refreshed = entry
                refreshed.headers = CacheStrategy.headersAfterRevalidation(stored: entry.headers, notModified: notModified.headers)
                refreshed.requestSentAt = sentAt
                refreshed.storedAt = self.clock()
                if !run.call.isCancelled { self.store.refreshEntry(refreshed) }
                var response = refreshed.response
                // The body is the stored one, but the exchange that validated it was real.
                response.timings = notModified.timings
                run.call.emit(.success(response), isFinal: true)
            }
        }
    }

    private func fetchAndStoreHTTP(_ run: PolicyRun, _ request: HTTPRequest) {
        fetch(run, request) { result, sentAt in
            self.storeIfAllowed(result, run: run, sentAt: sentAt, followsHTTPRules: true)
            run.call.emit(result, isFinal: true)
        }
    }

    /// Whether a successful response to `method` changes the resource (RFC 9110 §9.2.1: every
    /// method but `GET`, `HEAD`, `OPTIONS` and `TRACE`).
    static func isUnsafe(_ method: HTTPMethod) -> Bool {
        method != .get && method != .head && method != .options && method.rawValue != "TRACE"
    }

    /// A successful unsafe request changes the resource (RFC 9111 §4.4): forget what is
    /// stored for `GET` and `HEAD` of its URL and of the same-origin URLs its response names
    /// in `Location` and `Content-Location` (another origin's entries are not its to drop).
    /// Whatever the policy: any policy may have stored those entries.
    private func invalidate(after run: PolicyRun, response: HTTPResponse) {
        var targets = [run.request.url]
        for name in ["Location", "Content-Location"] {
            guard let value = response.headers[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty,
                  let target = URL(string: value, relativeTo: response.url)?.absoluteURL,
                  ResponseCache.isSameOrigin(target, run.request.url) else { continue }
            targets.append(target)
        }
        for url in targets {
            for method in [HTTPMethod.get, .head] {
                var read = run.request
                read.url = url
                read.method = method
                read.body = .none
                if let key = CacheKey(request: read, ignoredParameters: run.ignoredParameters, keyHeaders: run.keyHeaders) {
                    store.removeEntry(for: key)
                }
            }
        }
    }

    /// Same scheme, host and port (RFC 6454), the default port spelled or not.
    static func isSameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int)? {
            guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
            return (scheme, host, url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1))
        }
        guard let first = origin(a), let second = origin(b) else { return false }
        return first == second
    }

    /// Starts the transfer (unless the call already finished) and continues on the store's
    /// queue with its result and the time the request that produced it was sent; a successful
    /// unsafe request first invalidates what it changed.
    private func fetch(_ run: PolicyRun, _ request: HTTPRequest,
                       then: @escaping @Sendable (Result<HTTPResponse, NetworkError>, Date) -> Void) {
        guard !run.call.isFinished else { return }
        let queue = store.queue
        let transfer = run.network(request) { result in
            queue.async {
                // Read on the store's queue, not on whatever thread delivered the result (it
                // may be the engine's loop thread); the hop is part of the delay either way.
                let sentAt = ResponseCache.requestTime(of: result, receivedAt: self.clock())
                if ResponseCache.isUnsafe(request.method), case .success(let response) = result,
                   (200..<400).contains(response.statusCode) {
                    self.invalidate(after: run, response: response)
                }
                then(result, sentAt)
            }
        }
        run.call.attach(transfer)
    }

    /// When the attempt that produced `result` sent its request: its arrival minus its own
    /// transfer time. The network step may include retries and their waits (a `Retry-After`),
    /// which must not age the response (RFC 9111 §4.2.3's `request_time` is that of the
    /// exchange that produced it).
    static func requestTime(of result: Result<HTTPResponse, NetworkError>, receivedAt: Date) -> Date {
        guard case .success(let response) = result else { return receivedAt }
        let transfer = response.timings.total
        guard transfer.isFinite, transfer > 0 else { return receivedAt }
        return receivedAt.addingTimeInterval(-transfer)
    }

    /// The stored entry for the run's key, if its `Vary` fields match the request's (a
    /// mismatch, or `Vary: *`, is a miss under every policy).
    /// Serves the call from a stored copy the memory tier holds, on the caller's thread, when
    /// its policy would deliver that copy first: it saves the hop to the store's queue, which
    /// costs more than the lookup. Returns whether it did; otherwise the policy runs as usual.
    private func answeredFromHeldCopy(_ run: PolicyRun) -> Bool {
        switch run.policy {
        case .networkOnly, .networkFirst:
            return false
        case .fileFirst:
            guard let entry = heldLookup(run) else { return false }
            run.call.emit(.success(entry.response), isFinal: false)
            // Started from the store's queue: on the caller's thread it would hold up the
            // delivery just queued when the caller is on the callback queue.
            store.queue.async { self.fetchAndStore(run) }
        case .cacheElseNetwork(let maxAge):
            guard !maxAge.isNaN, maxAge >= 0, let entry = heldLookup(run),
                  max(0, clock().timeIntervalSince(entry.storedAt)) < maxAge else { return false }
            run.call.emit(.success(entry.response), isFinal: true)
        case .cacheOnly:
            guard let entry = heldLookup(run) else { return false }
            run.call.emit(.success(entry.response), isFinal: true)
        case .http:
            let request = run.request
            guard request.method == .get || request.method == .head, let entry = heldLookup(run),
                  case .useStored(let age) = CacheStrategy.decide(method: request.method, requestHeaders: request.headers,
                                                                  stored: entry, now: clock()) else { return false }
            run.call.emit(.success(ResponseCache.response(entry, age: age)), isFinal: true)
        }
        return true
    }

    /// The stored entry for `run` if the memory tier holds it unchanged
    /// (``DiskCache/heldEntryWithoutWaiting(for:)``), read without waiting; `nil` leaves the
    /// lookup to the store's queue. Only for a body in memory: the key of a file or stream body
    /// needs the body read.
    private func heldLookup(_ run: PolicyRun) -> CacheEntry? {
        switch run.request.body {
        case .none, .data: break
        case .file, .multipart, .stream: return nil
        }
        guard !run.call.isFinished, let key = run.key, let entry = store.heldEntryWithoutWaiting(for: key),
              CacheStrategy.varyMatches(entry, requestHeaders: run.request.headers) else { return nil }
        return entry
    }

    /// A stored response served under `.http`, with its `Age`. RFC 9111 §1.2.2 caps ages at
    /// 2^31 s; the cap also keeps a damaged entry's time from overflowing the conversion.
    private static func response(_ entry: CacheEntry, age: TimeInterval) -> HTTPResponse {
        var response = entry.response
        response.headers["Age"] = String(Int(min(age, 2_147_483_648).rounded(.down)))
        return response
    }

    func lookup(_ run: PolicyRun) -> CacheEntry? {
        guard let entry = run.key.flatMap({ store.readEntry(for: $0) }),
              CacheStrategy.varyMatches(entry, requestHeaders: run.request.headers) else { return nil }
        return entry
    }

    /// Stores a network response when every rule allows it: the library's own (see
    /// ``isStorableResponse(_:request:maximumEntrySize:)``), RFC 9111's under `.http`, then
    /// the caller's plan. A `no-store` under `.http` also drops any stored copy.
    private func storeIfAllowed(_ result: Result<HTTPResponse, NetworkError>, run: PolicyRun, sentAt: Date,
                                followsHTTPRules: Bool) {
        guard case .success(let response) = result, !run.call.isCancelled, let key = run.key else { return }
        guard ResponseCache.isStorableResponse(response, request: run.request, maximumEntrySize: store.maximumEntrySize) else {
            return
        }
        if followsHTTPRules {
            guard CacheStrategy.isStorable(method: run.request.method, requestHeaders: run.request.headers,
                                           statusCode: response.statusCode, responseHeaders: response.headers) else {
                if CacheControl(headers: response.headers).noStore { store.removeEntry(for: key) }
                return
            }
        }
        guard run.isCacheable(response) else { return }
        store.writeEntry(CacheEntry(key: key, request: run.request, response: response, requestSentAt: sentAt,
                                    storedAt: clock()))
    }

    /// The rules every policy applies before asking the plan: a `2xx` other than `206` and
    /// without `Content-Range`, not a download to a file, a body within the per-entry limit,
    /// no `Vary: *`, and — when the body is not content-coded — exactly `Content-Length` bytes (a shorter
    /// body is truncated; the engine normally fails those first).
    static func isStorableResponse(_ response: HTTPResponse, request: HTTPRequest, maximumEntrySize: Int64) -> Bool {
        guard (200..<300).contains(response.statusCode), response.statusCode != 206,
              !response.headers.contains("Content-Range"), response.fileURL == nil, request.download == nil,
              Int64(response.body.count) <= maximumEntrySize,
              // `Vary: *` matches no later request: storing it would only displace a usable entry.
              !CacheEntry.varyNames(response.headers).contains("*") else { return false }
        let coding = response.headers["Content-Encoding"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? "identity"
        if coding == "identity", request.method != .head, response.statusCode != 204,
           let lengthText = response.headers["Content-Length"] {
            guard let length = Int(lengthText.trimmingCharacters(in: .whitespaces)), length == response.body.count else {
                return false
            }
        }
        return true
    }

    static func missError(_ request: HTTPRequest) -> NetworkError {
        NetworkError(.cacheMiss, "no stored response for \(request.method) \(request.url.absoluteString)")
    }
}
