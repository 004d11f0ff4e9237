/// What to do when the server answers with a redirect.
///
/// The pipeline follows redirects itself, one hop at a time, so the interceptors, the cookie
/// jar and the hooks see each hop (``HTTPHook/didRedirect(_:hop:)``), and the final response
/// carries the hops in ``HTTPResponse/redirects``. Only 301, 302, 303, 307 and 308 with a
/// `Location` are followed, to `http` and `https` URLs (another scheme fails with
/// ``NetworkError/Kind/unsupportedScheme``, a `Location` that is no URL with
/// ``NetworkError/Kind/invalidResponse``); other 3xx are delivered as they are.
///
/// Each hop: after a 303 a `GET` (a `HEAD` stays `HEAD`) without the body; after a 301 or 302
/// a `POST` becomes a `GET` without its body, other methods keep method and body; after a 307
/// or 308 both are kept. A dropped body takes its `Content-*` fields along. A hop to another
/// scheme, host or port drops `Authorization`, `Cookie`, `Proxy-Authorization`, the
/// request's ``HTTPRequest/authentication`` and the URL's user information for the rest of
/// the chain — also when an interceptor adds them back. `Referer` is the previous URL
/// (without user information), except from `https` to `http`.
public enum RedirectPolicy: Sendable, Hashable {
    /// Follow at most `maximum` redirects; one more fails with
    /// ``NetworkError/Kind/tooManyRedirects`` (the last 3xx attached). The default is 10.
    case follow(maximum: Int)
    /// Deliver the 3xx response itself.
    case none
    /// Ask a handler at each hop; see ``custom(maximum:_:)``.
    case handled(RedirectHandler)

    /// Asks `decide` before each hop: follow it, follow a changed request, or stop and deliver
    /// the 3xx. The handler runs on the call's callback queue and should be quick. Each
    /// redirect's body is kept for the handler, so it counts against
    /// ``HTTPRequest/maximumResponseSize`` like any body (``follow(maximum:)`` drops it unread).
    ///
    /// ```swift
    /// .redirects(.custom { hop in
    ///     hop.request.url.host == "api.example.com" ? .follow : .stop
    /// })
    /// ```
    /// - Parameters:
    ///   - maximum: the most hops followed, whatever the handler says; one more fails with
    ///     ``NetworkError/Kind/tooManyRedirects``. Default 10.
    ///   - decide: the handler; it sees the redirect response, the next request after the
    ///     method rules and the cross-origin credential rule, and the hops so far.
    public static func custom(maximum: Int = 10,
                              _ decide: @escaping @Sendable (RedirectHop) -> RedirectHop.Decision) -> RedirectPolicy {
        .handled(RedirectHandler(maximum: maximum, decide: decide))
    }

    /// The most hops followed; `nil` for ``none``.
    package var maximumHops: Int? {
        switch self {
        case .follow(let maximum): maximum
        case .none: nil
        case .handled(let handler): handler.maximum
        }
    }

    /// Whether `status` is a redirect that is followed: 301, 302, 303, 307 and 308. Other 3xx
    /// (300, 304, 305) are delivered as they are, as the Fetch standard does.
    package static func follows(_ status: Int) -> Bool {
        status == 301 || status == 302 || status == 303 || status == 307 || status == 308
    }
}

/// A redirect handler of ``RedirectPolicy/custom(maximum:_:)``. Two handlers are equal only
/// when they are the same value (a closure cannot be compared).
public struct RedirectHandler: Sendable, Hashable {
    /// The most hops followed, whatever the handler says.
    public let maximum: Int
    /// The decision at each hop.
    public let decide: @Sendable (RedirectHop) -> RedirectHop.Decision
    private let identity: Identity

    /// Makes a handler; ``RedirectPolicy/custom(maximum:_:)`` is the usual way.
    public init(maximum: Int, decide: @escaping @Sendable (RedirectHop) -> RedirectHop.Decision) {
        self.maximum = maximum
        self.decide = decide
        identity = Identity()
    }

    public static func == (lhs: RedirectHandler, rhs: RedirectHandler) -> Bool {
        lhs.identity === rhs.identity
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(identity))
    }

    private final class Identity: Sendable {}
}
