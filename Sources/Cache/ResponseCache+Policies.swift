import Foundation
import HTTPCore

/// How each policy runs. Every step after the start runs on the store's serial queue, so the
/// lookups, stores and deliveries of one call happen in a fixed order.
extension ResponseCache {
    func execute(_ run: PolicyRun) {
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
            fetch(run, request) { result, _ in
                if case .success(let response) = result, (200..<400).contains(response.statusCode),
                   request.method != .options, request.method.rawValue != "TRACE" {
                    self.invalidate(after: request)
                }
                run.call.emit(result, isFinal: true)
            }
            return
        }
        let entry = lookup(run)
        switch CacheStrategy.decide(method: request.method, requestHeaders: request.headers, stored: entry, now: clock()) {
        case .useStored(let age):
            guard var response = entry?.response else { return fetchAndStoreHTTP(run, request) }
            response.headers["Age"] = String(Int(age.rounded(.down)))
            run.call.emit(.success(response), isFinal: true)
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

    /// A successful unsafe request changes the resource (RFC 9111 §4.4): forget what is
    /// stored for `GET` and `HEAD` of its URL.
    private func invalidate(after request: HTTPRequest) {
        for method in [HTTPMethod.get, .head] {
            var read = request
            read.method = method
            read.body = .none
            if let key = CacheKey(request: read) { store.removeEntry(for: key) }
        }
    }

    /// Starts the transfer (unless the call already finished) and continues on the store's
    /// queue with its result and the time it was sent.
    private func fetch(_ run: PolicyRun, _ request: HTTPRequest,
                       then: @escaping @Sendable (Result<HTTPResponse, NetworkError>, Date) -> Void) {
        guard !run.call.isFinished else { return }
        let sentAt = clock()
        let queue = store.queue
        let transfer = run.network(request) { result in
            queue.async { then(result, sentAt) }
        }
        run.call.attach(transfer)
    }

    func lookup(_ run: PolicyRun) -> CacheEntry? {
        run.key.flatMap { store.readEntry(for: $0) }
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
    /// and — when the body is not content-coded — exactly `Content-Length` bytes (a shorter
    /// body is truncated; the engine normally fails those first).
    static func isStorableResponse(_ response: HTTPResponse, request: HTTPRequest, maximumEntrySize: Int64) -> Bool {
        guard (200..<300).contains(response.statusCode), response.statusCode != 206,
              !response.headers.contains("Content-Range"), response.fileURL == nil, request.download == nil,
              Int64(response.body.count) <= maximumEntrySize else { return false }
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
