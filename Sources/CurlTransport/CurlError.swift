import CCurl
import HTTPCore

/// Maps libcurl's result codes onto ``NetworkError`` kinds.
///
/// libcurl reuses a few codes for a server's malformed reply that otherwise mean a local
/// problem (1 "unsupported protocol", 27 "out of memory", 43 "bad function argument"); each
/// is read as the server's fault only when its message says so and a response had begun to
/// arrive, and as the local problem it names otherwise. The code and libcurl's text are kept
/// in the error (``NetworkError/curlCode``, ``NetworkError/curlMessage``) whatever the kind.
enum CurlError {
    /// A proxy that wants credentials or refused the ones given (its 407, or a SOCKS5 refusal).
    static func proxyAuthentication(proxy: String, request: HTTPRequest, response: HTTPResponse?,
                                    curlCode: Int? = nil, curlMessage: String? = nil) -> NetworkError {
        let why = request.proxy.credentials != nil ? "it refused the credentials given"
            : request.proxy.kind == .environment
            ? "it wants credentials (give them in the proxy variable's URL, http://user:password@host:port, or set a Proxy with ProxyCredentials)"
            : "it wants credentials (give them with ProxyCredentials)"
        return NetworkError(.proxyAuthenticationRequired(proxy: proxy),
                            "the proxy \(proxy) did not let the request to \(request.url.host ?? request.url.absoluteString) through: \(why)",
                            curlCode: curlCode, curlMessage: curlMessage, response: response)
    }

    /// `text` with the user information of every URL in it removed (`socks5://u:p@h:1` is
    /// `socks5://h:1`).
    static func withoutURLCredentials(_ text: String) -> String {
        guard text.contains("@"), text.contains("://") else { return text }
        var result = ""
        var rest = Substring(text)
        while let separator = rest.range(of: "://") {
            result += rest[..<separator.upperBound]
            rest = rest[separator.upperBound...]
            let end = rest.firstIndex { "/?#'\" ".contains($0) || $0.isWhitespace } ?? rest.endIndex
            if let at = rest[..<end].lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        }
        return result + rest
    }

    /// The error for `code`.
    /// - Parameters:
    ///   - responseArrived: whether bytes of a response had arrived when the code ended the
    ///     transfer, so the server's bytes may be its cause. Default `false` (an option
    ///     refused, a failure before any answer).
    ///   - proxyRefusal: a proxy's answer to `CONNECT` that was no `2xx`
    ///     (`CURLINFO_HTTP_CONNECTCODE`) and the proxy's address. Default `nil`.
    ///   - proxy: the proxy the transfer went through, when it did (see `proxyInUse`). Default `nil`.
    ///   - proxyRejectedCredentials: a SOCKS5 proxy refused the user name and password.
    ///     Default `false`.
    static func makeError(code: CURLcode, message: String, request: HTTPRequest, response: HTTPResponse?,
                          responseArrived: Bool = false,
                          proxyRefusal: (status: Int, proxy: String)? = nil,
                          proxy: String? = nil,
                          proxyRejectedCredentials: Bool = false) -> NetworkError {
        // libcurl's messages may quote an environment proxy's URL, credentials and all.
        let description = withoutURLCredentials(message.isEmpty ? String(cString: curl_easy_strerror(code)) : message)
        let host = request.url.host ?? request.url.absoluteString
        if let proxyRefusal {
            // libcurl reports it as 56 "CONNECT tunnel failed, response 407", which read as a
            // lost connection to the origin; the proxy's head is not kept (it is no head of
            // the origin's response: `CURLOPT_SUPPRESS_CONNECT_HEADERS`), so its status is named here.
            // Only the proxy answers a CONNECT: a 401 there is its refusal of the credentials
            // too (tinyproxy 1.11 answers wrong ones with 401, missing ones with 407).
            if proxyRefusal.status == 407 || proxyRefusal.status == 401 {
                return proxyAuthentication(proxy: proxyRefusal.proxy, request: request, response: response,
                                           curlCode: Int(code.rawValue), curlMessage: description)
            }
            return NetworkError(.cannotConnect,
                                "the proxy \(proxyRefusal.proxy) refused the tunnel to \(host): it answered \(proxyRefusal.status)",
                                curlCode: Int(code.rawValue), curlMessage: description, response: response)
        }
        if code == CURLE_PROXY {
            // 97: a SOCKS handshake failed (libcurl's CURLINFO_PROXY_ERROR says which step).
            let name = proxy ?? Proxy.environment.description
            if proxyRejectedCredentials {
                return proxyAuthentication(proxy: name, request: request, response: nil,
                                           curlCode: Int(code.rawValue), curlMessage: description)
            }
            return NetworkError(.cannotConnect, "the proxy \(name) refused the connection to \(host)",
                                curlCode: Int(code.rawValue), curlMessage: description)
        }
        if let proxy, code == CURLE_COULDNT_CONNECT || code == CURLE_COULDNT_RESOLVE_PROXY {
            return NetworkError(code == CURLE_COULDNT_CONNECT ? .cannotConnect : .dnsFailure,
                                "cannot connect to the proxy \(proxy) (for \(host))",
                                curlCode: Int(code.rawValue), curlMessage: description)
        }
        let (kind, text): (NetworkError.Kind, String) = switch code {
        case CURLE_UNSUPPORTED_PROTOCOL:
            // A scheme libcurl refuses reads "Protocol "ftp" not supported or disabled in libcurl"
            // ("Unsupported protocol" without a message). The same code is how it refuses a
            // reply's status line: "Received HTTP/0.9 when not allowed", "Unsupported HTTP
            // version (7.3) in response", "Unsupported response code in HTTP response" (a code
            // of other than three digits).
            description.lowercased().contains("protocol")
                ? (.unsupportedScheme, "only http and https are allowed (\(description))")
                : (.invalidResponse, "the server's reply from \(host) has no valid status line")
        case CURLE_URL_MALFORMAT:
            (.invalidURL, "the URL is malformed: \(request.url.absoluteString)")
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            (.dnsFailure, "cannot resolve \(host)")
        case CURLE_COULDNT_CONNECT:
            (.cannotConnect, "cannot connect to \(host)")
        case CURLE_OPERATION_TIMEDOUT:
            // The connect and total timeouts; the idle timeout is the engine's own (`idleTimeout`).
            (.timedOut, "the request to \(host) timed out")
        case CURLE_ABORTED_BY_CALLBACK:
            (.cancelled, "the request was cancelled")
        case CURLE_PARTIAL_FILE:
            (.truncatedResponse, "the response from \(host) ended before its announced length")
        case CURLE_RECV_ERROR where description.contains("response headers"):
            // "Too large response headers: N > 307200" (libcurl's cap on a response head).
            (.responseTooLarge, "the response headers from \(host) are larger than libcurl accepts")
        case CURLE_RECV_ERROR where description.contains("chunk"):
            // "Illegal or missing hexadecimal sequence in chunked-encoding" and the like.
            (.invalidResponse, "the reply from \(host) has invalid chunked encoding")
        case CURLE_OUT_OF_MEMORY where responseArrived:
            // libcurl 7.88 reports a head line over its 100 KiB cap as "Out of memory" (its line
            // buffer refuses to grow); once a response is arriving, a real allocation failure
            // cannot be told apart. Before that it is one, and stays `.transport`.
            (.responseTooLarge, "a line of the response head from \(host) is longer than libcurl accepts")
        case CURLE_BAD_FUNCTION_ARGUMENT where responseArrived && description.contains("chunked"):
            // "Failed reading the chunked-encoded stream": a trailer line libcurl cannot store
            // as a field (no colon). Any other 43 is an option or a combination libcurl
            // refused, whenever it says so.
            (.invalidResponse, "the reply from \(host) has an invalid trailer section")
        case let code where (code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR)
            && (description.contains("SSL routines") || description.contains(" alert ")):
            // Under TLS 1.3 a server refuses a client certificate (or its absence) after the
            // handshake, so libcurl reports the alert from its first read: "OpenSSL SSL_read:
            // error:0A00045C:SSL routines::tlsv13 alert certificate required".
            (.tls, "TLS with \(host) failed: the server refused the connection (\(description))")
        case CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_HTTP2, CURLE_HTTP2_STREAM:
            (.connectionLost, "the connection to \(host) was lost")
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_RANGE_ERROR:
            (.invalidResponse, "the reply from \(host) is not valid HTTP")
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_PINNEDPUBKEYNOTMATCH,
             CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE,
             CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_SHUTDOWN_FAILED,
             CURLE_USE_SSL_FAILED, CURLE_SSL_CLIENTCERT:
            (.tls, "TLS with \(host) failed")
        case CURLE_READ_ERROR, CURLE_WRITE_ERROR:
            (.fileIO, "reading or writing the transfer's data failed")
        default:
            (.transport, "the transfer to \(host) failed")
        }
        return NetworkError(kind, text, curlCode: Int(code.rawValue), curlMessage: description, response: response)
    }

    /// The engine's idle timeout: no byte moved for ``Timeouts/idle`` seconds. Carries libcurl's
    /// timeout code (28), as the low-speed check it replaces did.
    static func idleTimeout(request: HTTPRequest, response: HTTPResponse?) -> NetworkError {
        let host = request.url.host ?? request.url.absoluteString
        return NetworkError(.timedOut,
                            "no data from \(host) within the idle timeout of \(Timeouts.describe(request.timeouts.idle))",
                            curlCode: Int(CURLE_OPERATION_TIMEDOUT.rawValue), response: response)
    }

    /// libcurl was about to send a request again after its reused connection died, and the
    /// request may not be repeated (see `CurlTransfer.willSendRequest`).
    static func resendRefused(request: HTTPRequest) -> NetworkError {
        let host = request.url.host ?? request.url.absoluteString
        let method = request.method.rawValue
        let reason = request.body.stream != nil ? "its body is a stream, which is sent once"
            : request.method.isIdempotent || request.headers.contains("Idempotency-Key")
            ? "it was sent twice already"
            : "\(method) is not idempotent; send an Idempotency-Key header or let a retry policy decide"
        return NetworkError(.connectionLost,
                            "the connection to \(host) was lost after the \(method) request was sent: it may have reached the server, and it was not sent again (\(reason))",
                            curlCode: Int(CURLE_SEND_ERROR.rawValue))
    }

    /// A reused connection had bytes waiting that no request asked for, past the point where
    /// the transfer can start over without repeating a request (a redirect's hop, a re-send).
    static func staleConnection(request: HTTPRequest) -> NetworkError {
        let host = request.url.host ?? request.url.absoluteString
        return NetworkError(.connectionLost,
                            "a reused connection to \(host) had unrequested bytes waiting (a response nobody asked for); it was closed before the request was sent",
                            curlCode: Int(CURLE_ABORTED_BY_CALLBACK.rawValue))
    }
}
