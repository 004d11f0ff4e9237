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
