import Foundation

// The steps of a call that carry a session across its requests: redirect hops and cookies.

extension PipelineCall {
    /// Works out the next hop of a redirect on the call's queue: the transport's rules, then the
    /// policy's handler, the hooks and (without interceptors) the cookie jar.
    func followRedirect(_ request: HTTPRequest, response: HTTPResponse, history: [HTTPRedirect]) {
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
                // The handler cannot send credentials where the rule withheld them.
                if withheld {
                    next.withholdsCredentials = true
                    for name in ["Authorization", "Cookie", "Proxy-Authorization"] { next.headers.remove(name: name) }
                    next.authentication = nil
                }
            case .stop:
                handle(.redirectDecided(next: nil), isOnQueue: true)
                return
            }
        }
        if let cookies {
            // The previous hop's cookies came from the jar as it was then; the caller's own
            // `Cookie` field stays wherever the credential rule kept it.
            let kept = next.headers["Cookie"] != nil ? task.originalRequest.headers["Cookie"] : nil
            next.headers.remove(name: "Cookie")
            if let kept { next.headers["Cookie"] = kept }
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
