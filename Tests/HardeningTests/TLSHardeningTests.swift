import Chain
import Foundation
import Synchronization
import Testing

/// Issue 8.5: what `Tests/HTTPCoreTests/TLSTests.swift` does not cover yet — certificate
/// dates, host names, old protocol versions, and redirects from https to http.
@Suite("TLS hardening", .timeLimit(.minutes(2)), .serialized)
struct TLSHardeningTests {
    let client = HTTPClient()

    /// Expired and not-yet-valid certificates are refused even when their CA is trusted; the
    /// same construction with valid dates is accepted (so the dates are the only difference).
    /// Defence: `SSL_VERIFYPEER` on by default.
    @Test func certificatesOutsideTheirValidityAreRefused() async throws {
        for validity in [TLSServer.Validity.valid, .expired, .notYetValid] {
            let server = try await TLSServer(validity: validity, accepts: 1)
            defer { server.stop() }
            var request = HTTPRequest(url: server.url())
            request.tls.caFile = server.certificate
            let result = await client.result(request)
            switch validity {
            case .valid:
                #expect(throws: Never.self) { try result.get() }
            case .expired:
                #expect(result.failure?.kind == .tls)
                #expect(result.failure?.curlMessage?.contains("expired") == true, "\(result.failure?.description ?? "")")
            case .notYetValid:
                #expect(result.failure?.kind == .tls)
                #expect(result.failure?.curlMessage?.contains("not yet valid") == true, "\(result.failure?.description ?? "")")
            }
        }
    }

    /// A trusted certificate for another name is refused. Defence: `SSL_VERIFYHOST` 2.
    @Test func aCertificateForAnotherHostIsRefused() async throws {
        let server = try await TLSServer(subjectAltName: "DNS:example.invalid", accepts: 1)
        defer { server.stop() }
        var request = HTTPRequest(url: server.url())
        request.tls.caFile = server.certificate
        let result = await client.result(request)
        #expect(result.failure?.kind == .tls, "\(result)")
    }

    /// A server that only speaks TLS 1.1 is refused. Defence: the client never lowers the
    /// minimum version or security level of libcurl/OpenSSL (Debian's OpenSSL 3 defaults to
    /// TLS 1.2 at security level 2); setting `SSLVERSION` to TLSv1 with `DEFAULT@SECLEVEL=0`
    /// ciphers would make this succeed.
    @Test func tls11IsRefused() async throws {
        let server = try await TLSServer(serverOptions: ["-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"], accepts: 1)
        defer { server.stop() }
        var request = HTTPRequest(url: server.url())
        request.tls.caFile = server.certificate
        let result = await client.result(request)
        #expect(result.failure?.kind == .tls, "\(result)")
    }

    /// A redirect from https to http is followed — the design allows `http,https` for redirects,
    /// as URLSession, Alamofire and OkHttp (`followSslRedirects`) do — but credentials do not
    /// travel: `Authorization` and `Cookie` set on the request are dropped when the scheme or
    /// port changes. `RedirectPolicy.none` delivers the 3xx instead (the way to refuse it).
    /// Defence: libcurl's credential stripping on redirects (we never set UNRESTRICTED_AUTH).
    @Test func aRedirectFromHTTPSToHTTPIsFollowedWithoutCredentials() async throws {
        let target = try TestServer.url("/headers")
        let redirect = "HTTP/1.0 302 Found\r\nLocation: \(target)\r\nContent-Length: 0\r\n\r\n"
        let server = try await TLSServer(files: ["redirect": redirect], accepts: 2)
        defer { server.stop() }

        var request = HTTPRequest(url: server.url("/redirect"))
        request.tls.caFile = server.certificate
        request.headers["Authorization"] = "Bearer secret-token"
        request.headers["Cookie"] = "session=secret-cookie"
        request.headers["X-Harmless"] = "kept"
        let response = try await client.result(request).get()
        #expect(response.statusCode == 200)
        #expect(response.url.scheme == "http")
        let echoed = String(decoding: response.body, as: UTF8.self)
        #expect(!echoed.contains("secret-token"), "Authorization followed the redirect to http: \(echoed)")
        #expect(!echoed.contains("secret-cookie"), "Cookie followed the redirect to http: \(echoed)")
        #expect(echoed.contains("kept"))

        var stay = request
        stay.redirectPolicy = .none
        let refused = try await client.result(stay).get()
        #expect(refused.statusCode == 302)
        #expect(refused.url.scheme == "https")
    }
}
