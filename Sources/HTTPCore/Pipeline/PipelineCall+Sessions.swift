import Foundation

// The steps of a call that carry a session across its requests: redirect hops and cookies.

extension PipelineCall {
    /// Works out the next hop of a redirect on the call's queue: the transport's rules, then the
    /// policy's handler, the hooks and (without interceptors) the cookie jar.
    func followRedirect(_ request: HTTPRequest, response: HTTPResponse, history: [HTTPRedirect]) {
        // A call stopped while this block waited for the queue: no handler, no hooks.
        guard case .redirecting = state.withLock({ $0.machine.state }) else { return }
        var next: HTTPRequest
        do throws(NetworkError) {
            next = try transport.redirectRequest(after: response, of: request)
        } catch {
            handle(.redirectFailed(error), isOnQueue: true)
            return
        }
        if case .handled(let handler) = request.redirectPolicy {
            switch handler.decide(RedirectHop(response: response, request: next, history: history)) {
            case .follow:
                break
            case .followModified(let modified):
                let withheld = next.withholdsCredentials
                next = modified
                // A handler cannot send credentials where the rule withheld them, nor to
                // another origin than the call's first request's.
                if withheld || !HTTPRequest.isSameOrigin(next.url, task.originalRequest.url) {
                    next.withholdCredentials()
                }
            case .stop:
                handle(.redirectDecided(next: nil), isOnQueue: true)
                return
            }
        }
        if let cookies {
            // The previous hop's cookies came from the jar as it was then; the caller's own
            // `Cookie` field stays wherever the credential rule kept it.
            let own = task.originalRequest.headers.values(for: "Cookie")
            next.headers.remove(name: "Cookie")
            if !next.withholdsCredentials, !own.isEmpty { next.headers["Cookie"] = own.joined(separator: "; ") }
            if interceptors.isEmpty { next = next.addingCookies(from: cookies) }
        }
        if !hooks.isEmpty, let context = state.withLock({ $0.openContext }) {
            let hop = RedirectHop(response: response, request: next, history: history)
            hooks.forEach { $0.didRedirect(context, hop: hop) }
        }
        handle(.redirectDecided(next: next), isOnQueue: true)
    }

    /// Hands the `Set-Cookie` fields of a response from the network (or a stub) to the jar.
    /// A transfer that failed (a head libcurl refused, a body cut short) sets no cookies.
    func storeCookies(of result: Result<HTTPResponse, NetworkError>) {
        guard let cookies, case .success(let response) = result else { return }
        let values = response.headers.values(for: "Set-Cookie")
        if !values.isEmpty { cookies.storeCookies(fromSetCookie: values, for: response.url) }
    }
}
