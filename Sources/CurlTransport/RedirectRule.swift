import CCurl
import Foundation
import HTTPCore

/// What the next hop of a redirect sends: a pure function of the request that got the redirect,
/// its status and its `Location`.
///
/// The pipeline follows redirects itself, one hop per transfer (libcurl's
/// `CURLOPT_FOLLOWLOCATION` is never on), because libcurl keeps a custom method
/// (`CURLOPT_CUSTOMREQUEST`) on every hop: a `DELETE` stayed a `DELETE` after a 303, and a
/// `PUT` arrived with an empty body. This transport only works out each next request
/// (``Transport/redirectRequest(after:of:)``), resolving `Location` with libcurl's URL parser
/// as libcurl's own following did. The rules, as RFC 9110 §15.4,
/// the Fetch standard, browsers and curl(1):
/// - 303: `GET` (a `HEAD` stays `HEAD`), without the body.
/// - 301 and 302: a `POST` becomes a `GET` without its body; every other method keeps its method and body.
/// - 307 and 308: method and body unchanged.
/// A dropped body takes its header fields with it (`Content-*`, `Transfer-Encoding`, `Expect`).
/// A hop to another origin (scheme, host or port) drops the credentials (`Authorization`,
/// `Cookie`, `Proxy-Authorization`, the request's authentication, the URL's user information),
/// and they stay dropped for the rest of the chain (``HTTPRequest/withholdsCredentials``;
/// libcurl compared each hop with the first host only, so a chain that came back got them again). Every hop sends the previous URL, without user information and
/// fragment, as `Referer` (libcurl's `CURLOPT_AUTOREFERER`) — except from `https` to `http`.
package enum RedirectRule {
    /// The request of the hop after `response`, a followed redirect of `request`: its
    /// `Location` resolved against the URL sent (`http://localhost/…` for a Unix socket), the
    /// socket kept only for a hop to the same host, and never a `+unix` URL a server names.
    /// - Throws: ``NetworkError/Kind/invalidResponse`` without a usable `Location`,
    ///   ``NetworkError/Kind/unsupportedScheme`` for a scheme that is not sent.
    package static func nextHop(after response: HTTPResponse, of request: HTTPRequest) throws(NetworkError) -> HTTPRequest {
        guard let location = response.headers["Location"] else {
            throw NetworkError(.invalidResponse, "the \(response.statusCode) redirect has no Location")
        }
        var current = request
        // The socket from the request or its `http+unix:` URL.
        let sent = try TransferTarget(url: request.url, unixSocketPath: request.unixSocketPath)
        let socket = sent.unixSocketPath
        if socket != nil, let url = URL(string: sent.urlString) {
            // libcurl's URL parser knows no `+unix` scheme: the `Location` is resolved against
            // the URL libcurl was given (`http://localhost/…`).
            current.url = url
        }
        // A server must not be able to send a request into a local socket (a daemon's API).
        let trimmed = location.drop { $0 == " " || $0 == "\t" }.lowercased()
        if trimmed.hasPrefix("http+unix:") || trimmed.hasPrefix("https+unix:") {
            throw NetworkError(.unsupportedScheme, "a redirect may not name a Unix socket: \(location.prefix(80))")
        }
        var next = try nextRequest(after: response.statusCode, location: location, from: current)
        if let scheme = next.url.scheme?.lowercased(), scheme.hasSuffix("+unix") {
            throw NetworkError(.unsupportedScheme, "a redirect may not name a Unix socket: \(scheme)://")
        }
        let plainNext = try TransferTarget(url: next.url)
        // The socket stands for the URL's host: a hop to another origin leaves it.
        if let socket, try TransferTarget(url: current.url).hostKey == plainNext.hostKey {
            next.unixSocketPath = socket
        } else {
            next.unixSocketPath = nil
        }
        return next
    }

    /// The method of the hop after a `status` redirect of a `method` request, and whether it
    /// keeps the body.
    package static func method(after status: Int, of method: HTTPMethod) -> (method: HTTPMethod, keepsBody: Bool) {
        switch status {
        case 303: (method == .head ? .head : .get, false)
        case 301, 302: method == .post ? (.get, false) : (method, true)
        default: (method, true)
        }
    }

    /// The request of the next hop after `request` got a `status` redirect to `location`.
    /// - Throws: ``NetworkError/Kind/invalidResponse`` when `location` does not resolve to a URL.
    ///   (Whether the scheme may be followed is the engine's check, as for every request.)
    package static func nextRequest(after status: Int, location: String,
                                    from request: HTTPRequest) throws(NetworkError) -> HTTPRequest {
        guard let resolved = resolve(location, against: request.url) else {
            throw NetworkError(.invalidResponse, "the redirect's Location is not a URL: \(location.debugDescription)")
        }
        var next = request
        next.url = resolved.url
        let (method, keepsBody) = self.method(after: status, of: request.method)
        next.method = method
        if keepsBody, request.body.stream != nil {
            throw NetworkError(.invalidRequest,
                               "the server redirected with \(status), which needs the request body sent again, but a streamed body is sent once (send a Data or file body to follow this redirect)")
        }
        if !keepsBody {
            next.body = .none
            for field in request.headers where isBodyField(field.name) { next.headers.remove(name: field.name) }
        }
        if resolved.crossesOrigin { next.withholdCredentials() }
        next.headers.remove(name: "Referer")
        if let referer = referer(from: request.url, to: resolved.url) { next.headers.add(name: "Referer", value: referer) }
        return next
    }

    /// `location` resolved against `base` as libcurl resolves a `Location` (relative and
    /// protocol-relative references; spaces and bytes outside ASCII percent-encoded), and
    /// whether it names another origin than `base`; the user information is removed then.
    /// `nil` when either does not parse.
    package static func resolve(_ location: String, against base: URL) -> (url: URL, crossesOrigin: Bool)? {
        guard let handle = CurlURL(base.absoluteString), let origin = handle.origin else { return nil }
        guard handle.set(.url, location, flags: UInt32(CURLU_URLENCODE) | UInt32(CURLU_ALLOW_SPACE)) else { return nil }
        // A URL without a host (`file:`) has no origin: another one, whose scheme the engine refuses.
        let crossesOrigin = handle.origin != origin
        if crossesOrigin {
            guard handle.set(.user, nil), handle.set(.password, nil) else { return nil }
        }
        guard let text = handle.text, let url = URL(string: text) else { return nil }
        return (url, crossesOrigin)
    }

    /// The `Referer` of a hop from `previous` to `next`: `previous` without user information
    /// and fragment; `nil` from `https` to `http`, which would show a private URL in clear text.
    static func referer(from previous: URL, to next: URL) -> String? {
        guard let handle = CurlURL(previous.absoluteString), let origin = handle.origin else { return nil }
        if origin.scheme == "https", next.scheme?.lowercased() == "http" { return nil }
        guard handle.set(.user, nil), handle.set(.password, nil), handle.set(.fragment, nil) else { return nil }
        return handle.text
    }

    /// Whether a field describes the body, so it goes when the body does.
    static func isBodyField(_ name: String) -> Bool {
        let lowercased = name.lowercased()
        return lowercased.hasPrefix("content-") || lowercased == "transfer-encoding" || lowercased == "expect"
    }
}
