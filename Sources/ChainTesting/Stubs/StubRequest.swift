import Foundation
import HTTPCore

/// A request as a ``StubTable`` route sees it: the request as it would go on the wire
/// (adapted by the interceptors, with the jar's cookies), and the values of the route's
/// `:name` and `*name` path segments.
public struct StubRequest: ReceivedRequest {
    /// The whole request.
    public let request: HTTPRequest
    /// The path parameters of the matched route, percent-decoded: `["id": "101"]` for
    /// `/user/:id`. Empty for a request no route matched.
    public let parameters: [String: String]

    /// The method.
    public var method: HTTPMethod { request.method }
    /// The URL, with the query.
    public var url: URL { request.url }
    /// The header fields.
    public var headers: HTTPHeaders { request.headers }
    /// The URL's path, percent-decoded (`/` when empty).
    public var path: String { StubRequest.path(of: request.url) }
    /// The URL's query items, percent-decoded, in order, `+` read as a space (as a server
    /// reads a form, and as ``RecordedRequest/queryItems`` does).
    public var queryItems: [URLQueryItem] {
        FormItems.decode(URLComponents(url: request.url, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? "")
    }

    /// The body bytes: a data body as it is, a file body's contents (empty when unreadable);
    /// empty for a multipart form (``HTTPRequest/body`` has its parts) and a stream, which a
    /// stub must not consume.
    public let body: Data

    /// Makes the view of `request` with the route's `parameters` (default none).
    public init(_ request: HTTPRequest, parameters: [String: String] = [:]) {
        self.request = request
        self.parameters = parameters
        switch request.body {
        case .data(let data): body = data
        case .file(let url): body = (try? Data(contentsOf: url)) ?? Data()
        case .none, .multipart, .stream: body = Data()
        }
    }

    static func path(of url: URL) -> String {
        let path = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? ""
        let decoded = path.removingPercentEncoding ?? path
        return decoded.isEmpty ? "/" : decoded
    }
}
