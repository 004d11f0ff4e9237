/// What a route answers. The connection adds Date, Server, framing and Connection headers.
package struct Response {
    /// How the body is produced.
    package enum Body {
        /// No body; `Content-Length: 0` except for statuses that forbid a body (1xx, 204, 304).
        case empty
        /// A body held in memory.
        case bytes([UInt8])
        /// A body written piece by piece: with a length it is sent with Content-Length, without
        /// one it is chunked (or close-delimited for HTTP/1.0 clients). Not run for HEAD.
        case stream(length: Int?, (BodyWriter) throws -> Void)
        /// The route writes the raw response bytes itself (fault injection); the connection is
        /// closed afterwards.
        case raw((Socket, ServerContext) throws -> Void)
    }

    package var status: Int
    package var headers: [(String, String)] = []
    package var body: Body = .empty
    /// Close the connection after this response even if the client wants to keep it.
    package var closeConnection = false

    package init(status: Int, headers: [(String, String)] = [], body: Body = .empty, closeConnection: Bool = false) {
        self.status = status
        self.headers = headers
        self.body = body
        self.closeConnection = closeConnection
    }

    /// The content type of every JSON response.
    static let jsonContentType = "application/json; charset=utf-8"

    /// A JSON response.
    static func json(_ value: JSONValue, status: Int = 200, headers: [(String, String)] = []) -> Response {
        Response(status: status, headers: [("Content-Type", jsonContentType)] + headers, body: .bytes(value.encoded()))
    }

    /// The `{"error","error_code"}` body of the sample API.
    static func error(_ message: String, code: String, status: Int, headers: [(String, String)] = []) -> Response {
        json(["error": .string(message), "error_code": .string(code)], status: status, headers: headers)
    }

    /// `true` for statuses whose responses never carry a body.
    static func forbidsBody(_ status: Int) -> Bool {
        (100..<200).contains(status) || status == 204 || status == 304
    }
}
