import Foundation

/// The result of one HTTP exchange: the final response after any redirects.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code of the final response, e.g. `200`.
    public var statusCode: Int
    /// The header fields of the final response only (not those of redirects or `100 Continue`).
    public var headers: HTTPHeaders
    /// The body, decoded from gzip, deflate, br or zstd. Empty for `HEAD`, `204`, `304` and
    /// for downloads to a file that succeeded (see ``fileURL``).
    public var body: Data
    /// The URL of the final response, after redirects.
    public var url: URL
    /// The HTTP version of the final response.
    public var httpVersion: HTTPVersion
    /// Timings reported by libcurl.
    public var timings: TransferTimings
    /// Where the body was written, for downloads to a file; `nil` otherwise.
    public var fileURL: URL?
    /// Where the response came from. Default ``ResponseSource/network``; the cache sets
    /// ``ResponseSource/cache`` on stored copies.
    public var source: ResponseSource
    /// The redirects followed before this response, oldest first (the URL that answered each
    /// and its status); empty without redirects, and for stored copies from the cache.
    public var redirects: [HTTPRedirect] = []

    /// Makes a response (the engine and the cache make them; tests and stubs may too).
    public init(statusCode: Int, headers: HTTPHeaders = HTTPHeaders(), body: Data = Data(), url: URL,
                httpVersion: HTTPVersion = .http1_1, timings: TransferTimings = TransferTimings(),
                fileURL: URL? = nil, source: ResponseSource = .network) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
        self.url = url
        self.httpVersion = httpVersion
        self.timings = timings
        self.fileURL = fileURL
        self.source = source
    }

    /// The MIME type from `Content-Type`, lower-cased, without parameters (e.g. `application/json`).
    public var mimeType: String? {
        guard let contentType = headers["Content-Type"] else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType
        let trimmed = type.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty ? nil : trimmed
    }

    /// The `charset` parameter of `Content-Type`, lower-cased, or `nil`.
    public var charset: String? {
        guard let contentType = headers["Content-Type"] else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"'")).lowercased()
        }
        return nil
    }
}

/// Where a response came from.
public enum ResponseSource: String, Sendable, Hashable {
    /// A transfer that just happened.
    case network
    /// A stored copy from the response cache.
    case cache
    /// A ``Stub`` answered instead of the network.
    case stub
}

/// The HTTP version of a response.
public enum HTTPVersion: String, Sendable, Hashable {
    /// HTTP/1.0
    case http1_0 = "HTTP/1.0"
    /// HTTP/1.1
    case http1_1 = "HTTP/1.1"
    /// HTTP/2
    case http2 = "HTTP/2"
    /// HTTP/3
    case http3 = "HTTP/3"
    /// Not known (a stub or a cached response from an older entry).
    case unknown = "HTTP"
}

/// Timings of a transfer as libcurl measures them, each in seconds from the start of the
/// transfer (so they grow in this order). Zero where a phase did not happen (no TLS on
/// `http`, no DNS for a reused connection). After redirects, the phases are the final hop's;
/// ``redirect``, ``total`` and ``newConnections`` count every hop.
public struct TransferTimings: Sendable, Hashable {
    /// Name resolution done (`CURLINFO_NAMELOOKUP_TIME_T`).
    public var nameLookup: TimeInterval
    /// TCP connection established (`CURLINFO_CONNECT_TIME_T`).
    public var connect: TimeInterval
    /// TLS handshake done (`CURLINFO_APPCONNECT_TIME_T`).
    public var tlsHandshake: TimeInterval
    /// About to send the request (`CURLINFO_PRETRANSFER_TIME_T`).
    public var preTransfer: TimeInterval
    /// First response byte received (`CURLINFO_STARTTRANSFER_TIME_T`).
    public var firstByte: TimeInterval
    /// All redirect hops before the final one: the sum of their total times.
    public var redirect: TimeInterval
    /// The whole transfer, redirect hops included (`CURLINFO_TOTAL_TIME_T` of each hop, summed).
    public var total: TimeInterval
    /// How many new connections the transfer opened, over all its hops (0 when it reused one).
    public var newConnections: Int
    /// Redirects followed.
    public var redirectCount: Int

    /// Makes timings; every value defaults to zero.
    public init(nameLookup: TimeInterval = 0, connect: TimeInterval = 0, tlsHandshake: TimeInterval = 0,
                preTransfer: TimeInterval = 0, firstByte: TimeInterval = 0, redirect: TimeInterval = 0,
                total: TimeInterval = 0, newConnections: Int = 0, redirectCount: Int = 0) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.tlsHandshake = tlsHandshake
        self.preTransfer = preTransfer
        self.firstByte = firstByte
        self.redirect = redirect
        self.total = total
        self.newConnections = newConnections
        self.redirectCount = redirectCount
    }
}
