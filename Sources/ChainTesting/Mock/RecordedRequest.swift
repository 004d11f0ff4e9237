import Foundation
import HTTPCore

/// A request as a ``MockServer`` received it, for a test to check what the code under test
/// sent (`MockServer.takeRequest(timeout:)`).
public struct RecordedRequest: ReceivedRequest, Hashable {
    /// The method, as sent.
    public let method: HTTPMethod
    /// The request target as sent: the path and the query, still percent-encoded (`/users?page=2`).
    public let target: String
    /// The path, percent-decoded (`/users`).
    public let path: String
    /// The query items, percent-decoded, in order (`+` read as a space, as in forms); empty
    /// without a query.
    public let queryItems: [URLQueryItem]
    /// The header fields, in the order received.
    public let headers: HTTPHeaders
    /// The body, with its transfer coding (chunked) removed.
    public let body: Data
    /// This request's place among every request the server received, counting from 0.
    public let sequenceNumber: Int
    /// The number of the connection it came on, counting from 1 in the order accepted.
    public let connectionNumber: Int
    /// The requests that came before this one on its connection: 0 on a new connection.
    public let indexOnConnection: Int
    /// `HTTP/1.1` or `HTTP/1.0`.
    public let httpVersion: String

    /// Whether it came on a connection that had carried an earlier request (keep-alive reuse).
    public var isConnectionReused: Bool { indexOnConnection > 0 }

    /// Makes a record (`httpVersion` default `HTTP/1.1`); the kit makes them, and a
    /// dispatcher's tests may too.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders, body: Data, sequenceNumber: Int,
                connectionNumber: Int, indexOnConnection: Int, httpVersion: String = "HTTP/1.1") {
        self.method = method
        self.target = target
        let (path, query) = RecordedRequest.split(target)
        self.path = path.removingPercentEncoding ?? path
        self.queryItems = query.map(FormItems.decode) ?? []
        self.headers = headers
        self.body = body
        self.sequenceNumber = sequenceNumber
        self.connectionNumber = connectionNumber
        self.indexOnConnection = indexOnConnection
        self.httpVersion = httpVersion
    }

    private static func split(_ target: String) -> (String, String?) {
        guard let mark = target.firstIndex(of: "?") else { return (target, nil) }
        return (String(target[..<mark]), String(target[target.index(after: mark)...]))
    }
}
