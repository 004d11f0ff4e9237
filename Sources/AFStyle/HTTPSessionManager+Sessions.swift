import Foundation

/// What carries a session across calls: the cookie jar, and AFNetworking's
/// task-will-perform-redirection block.
extension HTTPSessionManager {
    /// The cookie jar every call sends cookies from and stores `Set-Cookie` fields in (each
    /// redirect hop included): what URLSession's shared `HTTPCookieStorage` did for
    /// AFNetworking. Default ``CookieJar/shared``, the jar Chain's requests use too; `nil`
    /// sends and stores no cookies.
    public var cookieJar: CookieJar? {
        get { configuration.cookieJar }
        set { update { $0.cookieJar = newValue } }
    }

    /// Decides a redirect hop: gets the task, the redirect response and the request the hop
    /// would send, and returns the request to send (that one, or a changed one) or `nil` to
    /// stop and deliver the redirect response.
    public typealias RedirectionBlock = @Sendable (_ task: SessionTask, _ response: HTTPResponse,
                                                   _ request: HTTPRequest) -> HTTPRequest?

    /// Sets the block asked before every redirect hop of every call, AFNetworking's
    /// `setTaskWillPerformHTTPRedirectionBlock:`. It runs on ``completionQueue``. The proposed
    /// request follows the rules of ``RedirectPolicy`` (method, body, credentials dropped for
    /// another origin); credentials stay dropped whatever the block returns. Returning `nil`
    /// delivers the 3xx to `success` or `failure` as the response serializer decides. At most
    /// 10 hops are followed. Default `nil`: every redirect is followed, up to 10.
    public func setTaskWillPerformHTTPRedirectionBlock(_ block: RedirectionBlock?) {
        update { $0.redirection = block }
    }

    /// The policy of one call with `block`; the task is held weakly (it holds the request).
    static func redirectPolicy(_ block: @escaping RedirectionBlock, task: SessionTask) -> RedirectPolicy {
        .custom { [weak task] hop in
            guard let task else { return .follow }
            guard let request = block(task, hop.response, hop.request) else { return .stop }
            return request == hop.request ? .follow : .followModified(request)
        }
    }
}
