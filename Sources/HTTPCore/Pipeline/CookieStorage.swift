import Foundation

/// The cookie jar's plug into the pipeline. The core never imports the cookie module: its
/// `CookieJar` implements this protocol, and the front ends set it on ``CallOptions/cookies``.
///
/// The pipeline asks for the `Cookie` field of every request it sends (each redirect hop and
/// retry included, after the interceptors, so the cookies are in the request the hooks, the
/// curl rendering and the cache key see), and hands it the `Set-Cookie` fields of every
/// response that comes from the network or a stub (each redirect hop's included, before the
/// next hop is sent). Stored copies from the cache are never handed to it.
public protocol CookieStorage: Sendable {
    /// The value of the `Cookie` field for a request to `url`: the matching cookies as
    /// `name=value` pairs joined by `"; "`, in RFC 6265's order; `nil` when none match.
    func cookieHeader(for url: URL) -> String?
    /// Stores the cookies of a response from `url`, given as the values of its `Set-Cookie`
    /// fields in the order they came; a field the jar refuses is ignored, as RFC 6265 says.
    func storeCookies(fromSetCookie values: [String], for url: URL)
}

extension HTTPRequest {
    /// The request with the jar's cookies for its URL in its `Cookie` field, after those the
    /// field already has (a cookie set by hand wins over the jar's of the same name).
    package func addingCookies(from jar: any CookieStorage) -> HTTPRequest {
        guard let stored = jar.cookieHeader(for: url) else { return self }
        var request = self
        // RFC 6265 §5.4: one `Cookie` field; fields set by hand are joined first.
        let own = request.headers.values(for: "Cookie").filter { !$0.isEmpty }.joined(separator: "; ")
        guard !own.isEmpty else {
            request.headers["Cookie"] = stored
            return request
        }
        let ownNames = Set(own.split(separator: ";").map { $0.split(separator: "=", maxSplits: 1).first.map {
            $0.trimmingCharacters(in: .whitespaces) } ?? "" })
        let added = stored.split(separator: ";").filter { pair in
            let name = pair.split(separator: "=", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
            return !ownNames.contains(name)
        }.map { $0.trimmingCharacters(in: .whitespaces) }
        request.headers["Cookie"] = ([own] + added).joined(separator: "; ")
        return request
    }
}
