import Foundation
import HTTPCore

/// One canned answer: what ``MockServer`` sends for a request (from its queue or its
/// dispatcher), and what a ``StubTable`` route answers without any network.
///
/// ```swift
/// server.enqueue(MockResponse(status: 503))
/// server.enqueue(try .json(User(id: 101, name: "wiki")))
/// server.enqueue(MockResponse(body: Data(repeating: 7, count: 4096), options: [.throttle(bytesPerSecond: 1024)]))
/// server.enqueue(MockResponse(options: [.disconnectDuringBody]))
/// ```
///
/// The framing fields (`Content-Length`, `Transfer-Encoding`, `Connection`) are the server's
/// to write: they are dropped from ``headers`` when a ``MockServer`` sends the response. A
/// `HEAD` request, and the statuses that forbid a body (1xx, 204, 304), get no body, from a
/// server or a stub table alike. A status outside 100–999, or a header whose name is not a
/// token or whose value holds CR, LF or NUL, cannot be sent: a ``MockServer`` answers `500`
/// naming the problem instead, and a ``StubTable`` fails the request with
/// ``NetworkError/Kind/invalidRequest``.
public struct MockResponse: Sendable, Hashable {
    /// How a response is sent, beside what it is.
    public enum Option: Sendable, Hashable {
        /// Wait this many seconds before answering (before the status line). NaN, negative and
        /// infinite values mean no wait; waits are cut to one hour.
        case delay(TimeInterval)
        /// Send the body at about this rate, in pieces of a tenth of a second each; 0 or a
        /// negative rate means no throttling. A ``StubTable`` waits as long as the body would take.
        case throttle(bytesPerSecond: Int)
        /// Read the request, then close the connection without a byte of answer. A client sees
        /// the empty reply as ``NetworkError/Kind/connectionLost``.
        case disconnectAfterRequest
        /// Send the head (with the body's full `Content-Length`) and half of the body, then close.
        /// A client sees ``NetworkError/Kind/truncatedResponse``. An empty or 1-byte body is
        /// replaced by 1,024 bytes so that there is a middle to stop in.
        case disconnectDuringBody
        /// Read the request and never answer, until the client gives up (its idle or total
        /// timeout, a cancel) or the server shuts down.
        case noResponse
    }

    /// The status code. Default 200.
    public var status: Int
    /// The header fields, in order. Default none.
    public var headers: HTTPHeaders
    /// The body. Default empty.
    public var body: Data
    /// How it is sent. Default none: at once, whole.
    public var options: [Option]

    /// Makes a response; every argument has the default stated on its property.
    public init(status: Int = 200, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(), options: [Option] = []) {
        self.status = status
        self.headers = headers
        self.body = body
        self.options = options
    }

    /// A JSON response with `text` as its body (`Content-Type: application/json` unless
    /// `headers` name another). Defaults: status 200, no other headers, no options.
    public static func json(_ text: String, status: Int = 200, headers: HTTPHeaders = HTTPHeaders(),
                            options: [Option] = []) -> MockResponse {
        var fields = headers
        if fields["Content-Type"] == nil { fields["Content-Type"] = "application/json" }
        return MockResponse(status: status, headers: fields, body: Data(text.utf8), options: options)
    }

    /// A JSON response with `value` encoded by `encoder` (default: a `JSONEncoder` with sorted
    /// keys, so bodies compare in tests). Defaults: status 200, no other headers, no options.
    /// - Throws: what the encoder throws (a NaN without a strategy for it, for one).
    public static func json(_ value: some Encodable, status: Int = 200, headers: HTTPHeaders = HTTPHeaders(),
                            encoder: JSONEncoder = MockResponse.makeSortedKeysEncoder(), options: [Option] = []) throws -> MockResponse {
        var fields = headers
        if fields["Content-Type"] == nil { fields["Content-Type"] = "application/json" }
        return MockResponse(status: status, headers: fields, body: try encoder.encode(value), options: options)
    }

    /// A `text/plain; charset=utf-8` response. Defaults: status 200, no other headers, no options.
    public static func text(_ text: String, status: Int = 200, headers: HTTPHeaders = HTTPHeaders(),
                            options: [Option] = []) -> MockResponse {
        var fields = headers
        if fields["Content-Type"] == nil { fields["Content-Type"] = "text/plain; charset=utf-8" }
        return MockResponse(status: status, headers: fields, body: Data(text.utf8), options: options)
    }

    /// A `JSONEncoder` with `.sortedKeys`, the default encoder of the `json` factory for values.
    public static func makeSortedKeysEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// The response with `option` added after its others.
    public func adding(_ option: Option) -> MockResponse {
        var copy = self
        copy.options.append(option)
        return copy
    }
}

extension MockResponse {
    /// The wait before answering, in seconds: the sum of the valid ``Option/delay(_:)``s, at most an hour.
    var delaySeconds: TimeInterval {
        let total = options.reduce(0.0) { sum, option in
            guard case .delay(let seconds) = option, seconds.isFinite, seconds > 0 else { return sum }
            return sum + seconds
        }
        return min(total, 3600)
    }

    /// The throttle rate, when there is a valid one (the last wins).
    var bytesPerSecond: Int? {
        options.reversed().lazy.compactMap { option -> Int? in
            guard case .throttle(let rate) = option, rate > 0 else { return nil }
            return rate
        }.first
    }

    /// The fault to inject, when there is one (the first wins).
    var fault: Option? {
        options.first { option in
            switch option {
            case .disconnectAfterRequest, .disconnectDuringBody, .noResponse: true
            case .delay, .throttle: false
            }
        }
    }

    /// Why this response cannot be sent as it is; `nil` when it can.
    var invalidity: String? {
        guard (100...999).contains(status) else { return "the status \(status) is not a three-digit code" }
        if let field = headers.firstUnsafeField() {
            return "the header \(field.name.debugDescription) has a name that is not a token, or CR, LF or NUL in its value"
        }
        return nil
    }

    /// Whether the answer to `method` carries the body.
    func sendsBody(toMethod method: String) -> Bool {
        !(method == "HEAD" || (100..<200).contains(status) || status == 204 || status == 304)
    }

    /// The body the ``Option/disconnectDuringBody`` fault declares, half of which it sends.
    var truncatableBody: Data {
        body.count > 1 ? body : Data(repeating: 0x2e, count: 1024)
    }
}
