import Chain
import Foundation
import Testing

/// Issue 25: the engine against Debian's nginx rather than our own servers — HTTP/2 by ALPN,
/// multiplexing on one connection, mutual TLS, public-key pinning and basic authentication.
@Suite("Transport reach: nginx", .timeLimit(.minutes(2)))
struct NginxReachTests {
    let client = HTTPClient()

    /// A request to nginx's TLS listener with the test CA trusted.
    private func tlsRequest(_ nginx: NginxPeer, _ path: String) -> HTTPRequest {
        var request = HTTPRequest(url: nginx.tlsURL(path))
        request.tls.caFile = nginx.caFile
        return request
    }

    /// ALPN picks h2 with nginx's `listen … ssl http2`, and the body arrives intact.
    @Test func aGETOverTLSNegotiatesHTTP2() async throws {
        let nginx = try await Peers.nginx
        let response = try await client.result(tlsRequest(nginx, "/hello?\(unique())")).get()
        #expect(response.statusCode == 200)
        #expect(response.httpVersion == .http2)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"hello":"world"}"#)
        #expect(response.headers["Content-Type"] == "application/json")
    }

    /// 100 GETs started at once share one HTTP/2 connection: libcurl waits for the first
    /// connection to learn it multiplexes (`PIPEWAIT`) instead of opening one per request.
    /// nginx's access log proves it: every one of the 100 lines has the same `$connection`.
    @Test func aHundredConcurrentGETsShareOneHTTP2Connection() async throws {
        let nginx = try await Peers.nginx
        let client = HTTPClient(configuration: HTTPClient.Configuration(
            maximumConnectionsPerHost: 6, maximumConcurrentRequestsPerHost: 0))
        let marker = unique()
        let results = await withTaskGroup(of: Result<HTTPResponse, NetworkError>.self) { group in
            for index in 0..<100 {
                group.addTask { await client.result(tlsRequest(nginx, "/hello?\(marker)-\(index)")) }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let responses = results.compactMap(\.success)
        #expect(responses.count == 100, "\(results.compactMap(\.failure).prefix(3))")
        #expect(responses.allSatisfy { $0.statusCode == 200 && $0.httpVersion == .http2 })

        let lines = await loggedLines(nginx, containing: marker, count: 100)
        #expect(lines.count == 100)
        #expect(lines.allSatisfy { $0.port == nginx.tlsPort })
        let connections = Set(lines.map(\.connection))
        #expect(connections.count == 1, "connections: \(connections.sorted())")
    }

    /// With the CA-signed client certificate, the mutual-TLS listener serves the request.
    @Test func mutualTLSSucceedsWithTheClientCertificate() async throws {
        let nginx = try await Peers.nginx
        var request = HTTPRequest(url: nginx.mutualTLSURL("/hello?\(unique())"))
        request.tls = TLSOptions(caFile: nginx.caFile, clientCertificate: nginx.ca.clientCertificate,
                                 clientKey: nginx.ca.clientKey)
        let response = try await client.result(request).get()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"hello":"world"}"#)
    }

    /// Without a client certificate the handshake still completes: nginx's `ssl_verify_client
    /// on` asks for a certificate but does not fail the handshake without one, and answers
    /// `400 No required SSL certificate was sent` over HTTP (h2 here). So the client sees a
    /// response, not a ``NetworkError/Kind/tls`` failure; this test pins down that behaviour.
    @Test func withoutTheClientCertificateNginxAnswers400() async throws {
        let nginx = try await Peers.nginx
        var request = HTTPRequest(url: nginx.mutualTLSURL("/hello?\(unique())"))
        request.tls.caFile = nginx.caFile
        let response = try await client.result(request).get()
        #expect(response.statusCode == 400)
        #expect(String(decoding: response.body, as: UTF8.self).contains("No required SSL certificate was sent"))
    }

    /// The server key's pin is accepted; a pin of an unrelated key fails the connection with
    /// ``NetworkError/Kind/tls`` although the certificate chain is trusted.
    @Test func pinningAcceptsTheServerKeyAndRefusesAnother() async throws {
        let nginx = try await Peers.nginx
        var pinned = tlsRequest(nginx, "/hello?\(unique())")
        pinned.tls.pinnedPublicKey = nginx.ca.serverKeyPin
        let response = try await client.result(pinned).get()
        #expect(response.statusCode == 200)

        // A fresh client: the one above may hold a verified connection the pin is not rechecked on.
        let other = HTTPClient()
        var wrong = tlsRequest(nginx, "/hello?\(unique())")
        wrong.tls.pinnedPublicKey = nginx.ca.unrelatedKeyPin
        let result = await other.result(wrong)
        #expect(result.failure?.kind == .tls, "\(result)")
    }

    /// `auth_basic`: 401 with a `WWW-Authenticate` challenge without credentials, 200 with
    /// the right `Authorization: Basic` header, 401 with a wrong password.
    @Test func basicAuthentication() async throws {
        let nginx = try await Peers.nginx
        let url = nginx.httpURL("/basic")
        let challenge = try await client.result(HTTPRequest(url: url)).get()
        #expect(challenge.statusCode == 401)
        #expect(challenge.headers["WWW-Authenticate"]?.hasPrefix("Basic") == true)

        func authorized(_ password: String) -> HTTPRequest {
            var request = HTTPRequest(url: url)
            let credentials = Data("\(NginxPeer.basicUser):\(password)".utf8).base64EncodedString()
            request.headers["Authorization"] = "Basic \(credentials)"
            return request
        }
        let accepted = try await client.result(authorized(NginxPeer.basicPassword)).get()
        #expect(accepted.statusCode == 200)
        #expect(String(decoding: accepted.body, as: UTF8.self) == #"{"authenticated":true}"#)
        let refused = try await client.result(authorized("wrong")).get()
        #expect(refused.statusCode == 401)
    }

    /// The plain listener speaks HTTP/1.1, `/echo-host` returns the `Host` the client sent,
    /// and `/hsts` on the TLS listener carries `Strict-Transport-Security`.
    @Test func plainListenerEchoHostAndHSTS() async throws {
        let nginx = try await Peers.nginx
        let plain = try await client.result(HTTPRequest(url: nginx.httpURL("/echo-host?\(unique())"))).get()
        #expect(plain.httpVersion == .http1_1)
        #expect(String(decoding: plain.body, as: UTF8.self) == "127.0.0.1:\(nginx.httpPort)")

        let hsts = try await client.result(tlsRequest(nginx, "/hsts")).get()
        #expect(hsts.headers["Strict-Transport-Security"] == "max-age=3600")
    }
}
