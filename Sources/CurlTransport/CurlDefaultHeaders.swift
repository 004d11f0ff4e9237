import CCurl
import HTTPCore

/// The `User-Agent` and `Accept-Encoding` lines every request carries unless it sets its own,
/// as one libcurl header list that an engine builds once and every transfer shares.
///
/// Why not `CURLOPT_USERAGENT` and the line `CURLOPT_ACCEPT_ENCODING` writes: libcurl 7.88
/// formats each of those into a new string on every request (`aprintf`, one call per byte) and
/// then copies that string into the request the same way. The first pass alone cost about
/// 9,000 instructions per request, 7% of a small GET. A line from `CURLOPT_HTTPHEADER` is
/// copied once. `CURLOPT_ACCEPT_ENCODING` stays set on every handle, because it is what turns on
/// decoding; libcurl leaves its own `Accept-Encoding` line out when the list has one.
///
/// Used on the loop thread only; the list is freed when the engine that owns it goes away,
/// after the loop has cleaned up every easy handle that pointed at it.
final class CurlDefaultHeaders {
    /// The shared list, for requests without headers of their own; `nil` only when libcurl
    /// could not allocate it (then the transfer fails with a typed error rather than go out
    /// without the lines).
    let sharedList: UnsafeMutablePointer<curl_slist>?
    /// The `User-Agent` line alone, for a proxy's `CONNECT` (`CURLOPT_PROXYHEADER`): libcurl
    /// sends a tunnel request none of the origin's header lines, so without it the proxy saw
    /// a `CONNECT` without any User-Agent.
    let proxyList: UnsafeMutablePointer<curl_slist>?
    /// The lines, name first, in the order they are sent.
    let fields: [(name: String, line: String)]

    /// Builds the lines for `userAgent` and the encodings this libcurl decodes.
    /// - Throws: ``NetworkError/Kind/invalidRequest`` when `userAgent` has CR, LF or NUL,
    ///   which would end the line early and let the rest pass for header lines of its own.
    ///   The client then fails every request with it (its start-up error).
    init(userAgent: String) throws(NetworkError) {
        guard !userAgent.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }) else {
            throw NetworkError(.invalidRequest, "the configured User-Agent has a character that is not allowed (CR, LF or NUL)")
        }
        var fields: [(name: String, line: String)] = [("User-Agent", "User-Agent: \(userAgent)")]
        let encodings = CurlDefaultHeaders.decodableEncodings
        if !encodings.isEmpty {
            fields.append(("Accept-Encoding", "Accept-Encoding: \(encodings.joined(separator: ", "))"))
        }
        self.fields = fields
        var list: UnsafeMutablePointer<curl_slist>?
        for field in fields {
            guard let appended = curl_slist_append(list, field.line) else {
                curl_slist_free_all(list)
                list = nil
                break
            }
            list = appended
        }
        sharedList = list
        proxyList = fields.first.flatMap { curl_slist_append(nil, $0.line) }
    }

    deinit {
        if let sharedList { curl_slist_free_all(sharedList) }
        if let proxyList { curl_slist_free_all(proxyList) }
    }

    /// The content codings this libcurl can decode, in the order libcurl itself lists them for
    /// `CURLOPT_ACCEPT_ENCODING` `""` (its content-encoding table: deflate, gzip, br, zstd).
    static var decodableEncodings: [String] {
        var encodings: [String] = []
        if ccurl_has_feature(Int32(CURL_VERSION_LIBZ)) != 0 { encodings += ["deflate", "gzip"] }
        if ccurl_has_feature(Int32(CURL_VERSION_BROTLI)) != 0 { encodings.append("br") }
        if ccurl_has_feature(Int32(CURL_VERSION_ZSTD)) != 0 { encodings.append("zstd") }
        return encodings
    }
}
