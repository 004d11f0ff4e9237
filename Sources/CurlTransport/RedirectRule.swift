import CCurl
import Foundation
import HTTPCore

/// What the next hop of a redirect sends: a pure function of the request that got the redirect,
/// its status and its `Location`.
///
/// The engine follows redirects itself (libcurl's `CURLOPT_FOLLOWLOCATION` is off), because
/// libcurl keeps a custom method (`CURLOPT_CUSTOMREQUEST`) on every hop: a `DELETE` stayed a
/// `DELETE` after a 303, and a `PUT` arrived with an empty body. The rules, as RFC 9110 §15.4,
/// the Fetch standard, browsers and curl(1):
/// - 303: `GET` (a `HEAD` stays `HEAD`), without the body.
/// - 301 and 302: a `POST` becomes a `GET` without its body; every other method keeps its method and body.
/// - 307 and 308: method and body unchanged.
/// A dropped body takes its header fields with it (`Content-*`, `Transfer-Encoding`, `Expect`).
/// A hop to another origin (scheme, host or port) drops the credentials (`Authorization`,
/// `Cookie`, `Proxy-Authorization`, the URL's user information), and they stay dropped for the
/// rest of the chain (libcurl compared each hop with the first host only, so a chain that came
/// back got them again). Every hop sends the previous URL, without user information and
/// fragment, as `Referer` (libcurl's `CURLOPT_AUTOREFERER`) — except from `https` to `http`.
package enum RedirectRule {
    /// Whether `status` is a redirect that is followed: 301, 302, 303, 307 and 308. Other 3xx
    /// (300, 304, 305) are delivered as they are, as the Fetch standard does.
    package static func follows(_ status: Int) -> Bool {
        status == 301 || status == 302 || status == 303 || status == 307 || status == 308
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
        if !keepsBody {
            next.body = .none
            for field in request.headers where isBodyField(field.name) { next.headers.remove(name: field.name) }
        }
        if resolved.crossesOrigin {
            for name in ["Authorization", "Cookie", "Proxy-Authorization"] { next.headers.remove(name: name) }
        }
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
