import Foundation

/// A canned answer that replaces the transfer — for app unit tests that must not touch the
/// network (Moya's `sampleData` stubbing). Interceptors, the plan and the hooks still run.
public struct Stub: Sendable, Hashable {
    /// The status code. Default 200.
    public var statusCode: Int
    /// The response headers. Default `Content-Type: application/json`.
    public var headers: HTTPHeaders
    /// The body.
    public var body: Data
    /// Seconds to wait before answering. Default 0 (answer at once, still asynchronously); NaN
    /// or negative also answers at once. A cancel or the request's total timeout ends the wait.
    public var delay: TimeInterval
    /// Answer with this error instead of a response. Default `nil`.
    public var error: NetworkError?

    /// Makes a stub; every argument but the body has the default stated on its property.
    public init(statusCode: Int = 200, headers: HTTPHeaders = ["Content-Type": "application/json"], body: Data,
                delay: TimeInterval = 0, error: NetworkError? = nil) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.delay = delay
        self.error = error
    }

    /// The response this stub stands for.
    func response(for request: HTTPRequest) -> HTTPResponse {
        HTTPResponse(statusCode: statusCode, headers: headers, body: body, url: request.url, httpVersion: .unknown,
                     source: .stub)
    }
}
