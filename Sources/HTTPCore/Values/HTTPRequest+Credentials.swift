import Foundation

// The credential rule of a redirect chain, once for every place that makes a hop's request:
// the transport's rule, a handler's changed request, the interceptors' adaptation.

extension HTTPRequest {
    /// Removes what must not reach another origin — `Authorization`, `Cookie`,
    /// `Proxy-Authorization`, ``authentication`` and the URL's user information — and marks
    /// the request (``withholdsCredentials``) so that every later hop of the chain is treated
    /// the same. The cookie jar then adds the new origin's own cookies.
    package mutating func withholdCredentials() {
        for name in ["Authorization", "Cookie", "Proxy-Authorization"] { headers.remove(name: name) }
        authentication = nil
        withholdsCredentials = true
        if url.user != nil || url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            components.user = nil
            components.password = nil
            if let stripped = components.url { url = stripped }
        }
    }

    /// Whether `url` has the scheme, host and port of `other` (a missing port is the scheme's
    /// default), compared without case.
    package static func isSameOrigin(_ url: URL, _ other: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?) {
            let scheme = url.scheme?.lowercased() ?? ""
            let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : nil)
            return (scheme, url.host?.lowercased() ?? "", port)
        }
        return origin(url) == origin(other)
    }
}
