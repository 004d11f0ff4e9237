import Foundation

/// One redirect the pipeline is about to follow, as a ``RedirectPolicy/custom(maximum:_:)``
/// handler and the hooks see it.
public struct RedirectHop: Sendable {
    /// What the handler answers.
    public enum Decision: Sendable {
        /// Send ``RedirectHop/request`` as it is.
        case follow
        /// Send this request instead (a changed URL, method or headers). The cross-origin
        /// credential rule still applies to it: a request to another origin than the call's
        /// first, or after the chain left it, loses its credentials.
        case followModified(HTTPRequest)
        /// Follow no further: the redirect response is delivered (and validated) as the result.
        case stop
    }

    /// The redirect response: its status, headers and (for a handler) body.
    public var response: HTTPResponse
    /// The request of the next hop, after the method rules and the cross-origin credential
    /// rule of ``RedirectPolicy``. A handler sees it before the cookie jar and the interceptors;
    /// the hooks see it after the handler and, for a call without interceptors, with the jar's
    /// cookies (with interceptors, those are added after their adaptation).
    public var request: HTTPRequest
    /// The hops followed before this one, oldest first; empty at the first redirect.
    public var history: [HTTPRedirect]

    /// Makes a hop (the pipeline makes them; tests may too).
    public init(response: HTTPResponse, request: HTTPRequest, history: [HTTPRedirect]) {
        self.response = response
        self.request = request
        self.history = history
    }
}

/// One followed redirect in a response's history: the URL that answered with a redirect, and
/// its status.
public struct HTTPRedirect: Sendable, Hashable {
    /// The URL of the request that got the redirect.
    public var url: URL
    /// The redirect's status: 301, 302, 303, 307 or 308.
    public var statusCode: Int

    /// Makes a record.
    public init(url: URL, statusCode: Int) {
        self.url = url
        self.statusCode = statusCode
    }
}
