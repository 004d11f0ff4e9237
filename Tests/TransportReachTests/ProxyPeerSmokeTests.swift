import Chain
import Foundation
import Testing

/// The proxy peers run and proxy: a `CONNECT` through tinyproxy and a SOCKS5 handshake
/// through Dante, spoken by hand to nginx's plain listener, and an HTTPS request through the
/// TLS relay. The client's own proxy support is tested on top of these launchers elsewhere.
@Suite("Transport reach: proxy peers", .timeLimit(.minutes(2)))
struct ProxyPeerSmokeTests {
    /// `GET path` on an open tunnel to nginx's plain listener; returns the whole response.
    private static func get(_ path: String, on connection: RawConnection) throws -> String {
        try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return try connection.receiveToEnd()
    }

    /// A SOCKS5 greeting offering user name/password only, then RFC 1929 authentication as
    /// ``DantePeer/user`` with `password`; returns the two-byte authentication reply.
    private static func authenticate(_ connection: RawConnection, password: String) throws -> [UInt8] {
        try connection.send([5, 1, 2])
        let choice = try connection.receive(exactly: 2)
        guard choice == [5, 2] else { throw TestFailure("dante chose method \(choice)") }
        let user = Array(DantePeer.user.utf8), secret = Array(password.utf8)
        try connection.send([1, UInt8(user.count)] + user + [UInt8(secret.count)] + secret)
        return try connection.receive(exactly: 2)
    }

    /// tinyproxy opens a `CONNECT` tunnel (any port: no `ConnectPort` line) and logs it.
    @Test func tinyproxyTunnelsACONNECT() async throws {
        let nginx = try await Peers.nginx
        let proxy = try await Peers.tinyproxy
        let path = "/hello?\(unique())"
        let (head, response) = try await offPool {
            Result { () throws -> (String, String) in
                let connection = try RawConnection(port: proxy.port)
                try connection.send("CONNECT 127.0.0.1:\(nginx.httpPort) HTTP/1.1\r\nHost: 127.0.0.1:\(nginx.httpPort)\r\n\r\n")
                let head = try connection.receiveHead()
                return (head, try Self.get(path, on: connection))
            }
        }.get()
        #expect(head.hasPrefix("HTTP/1.0 200") || head.hasPrefix("HTTP/1.1 200"), "\(head)")
        #expect(response.hasPrefix("HTTP/1.1 200"))
        #expect(response.hasSuffix(#"{"hello":"world"}"#))
        #expect(proxy.requestLines().contains("CONNECT 127.0.0.1:\(nginx.httpPort) HTTP/1.1"))
        #expect(await loggedLine(nginx, containing: path)?.target == path)
    }

    /// With `BasicAuth`, tinyproxy answers 407 without `Proxy-Authorization` and forwards a
    /// plain request with it.
    @Test func tinyproxyAsksForCredentials() async throws {
        let nginx = try await Peers.nginx
        let proxy = try await Peers.authenticatingTinyproxy
        let target = nginx.httpURL("/hello?\(unique())").absoluteString
        let credentials = Data("\(TinyproxyPeer.user):\(TinyproxyPeer.password)".utf8).base64EncodedString()
        let (refused, forwarded) = try await offPool {
            Result { () throws -> (String, String) in
                let first = try RawConnection(port: proxy.port)
                try first.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
                let refused = try first.receiveToEnd()
                let second = try RawConnection(port: proxy.port)
                try second.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nProxy-Authorization: Basic \(credentials)\r\n"
                                + "Connection: close\r\n\r\n")
                return (refused, try second.receiveToEnd())
            }
        }.get()
        #expect(refused.hasPrefix("HTTP/1.0 407") || refused.hasPrefix("HTTP/1.1 407"), "\(refused.prefix(200))")
        #expect(forwarded.contains(" 200 "), "\(forwarded.prefix(200))")
        #expect(forwarded.hasSuffix(#"{"hello":"world"}"#))
        #expect(proxy.requestLines().contains("GET \(target) HTTP/1.1"))
    }

    /// Dante: RFC 1929 authentication as the private user, then a SOCKS5 `CONNECT` to nginx;
    /// a wrong password is refused (status ≠ 0) before any connection is made.
    @Test func danteAuthenticatesAndConnects() async throws {
        let nginx = try await Peers.nginx
        let socks = try await Peers.dante
        let path = "/hello?\(unique())"
        let (refusal, reply, response) = try await offPool {
            Result { () throws -> ([UInt8], [UInt8], String) in
                let refusal = try Self.authenticate(RawConnection(port: socks.port), password: "wrong")
                let connection = try RawConnection(port: socks.port)
                let accepted = try Self.authenticate(connection, password: DantePeer.password)
                guard accepted == [1, 0] else { throw TestFailure("dante refused the right password: \(accepted)") }
                let port = UInt16(nginx.httpPort)
                try connection.send([5, 1, 0, 1, 127, 0, 0, 1, UInt8(port >> 8), UInt8(port & 0xFF)])
                let reply = try connection.receive(exactly: 10)  // an IPv4 bound address
                return (refusal, reply, try Self.get(path, on: connection))
            }
        }.get()
        #expect(refusal.first == 1 && refusal.last != 0, "\(refusal)")
        #expect(reply.prefix(2) == [5, 0], "\(reply)")
        #expect(response.hasPrefix("HTTP/1.1 200"))
        #expect(response.hasSuffix(#"{"hello":"world"}"#))
        #expect(await loggedLine(nginx, containing: path)?.target == path)
    }

    /// Dante with ``DantePeer/Method/none`` picks "no authentication" and connects at once.
    @Test func danteWithoutAuthenticationConnects() async throws {
        let nginx = try await Peers.nginx
        let socks = try await DantePeer.start(method: .none)
        defer { socks.stop() }
        let path = "/hello?\(unique())"
        let (choice, reply, response) = try await offPool {
            Result { () throws -> ([UInt8], [UInt8], String) in
                let connection = try RawConnection(port: socks.port)
                try connection.send([5, 1, 0])
                let choice = try connection.receive(exactly: 2)
                let port = UInt16(nginx.httpPort)
                try connection.send([5, 1, 0, 1, 127, 0, 0, 1, UInt8(port >> 8), UInt8(port & 0xFF)])
                let reply = try connection.receive(exactly: 10)
                return (choice, reply, try Self.get(path, on: connection))
            }
        }.get()
        #expect(choice == [5, 0])
        #expect(reply.prefix(2) == [5, 0], "\(reply)")
        #expect(response.hasSuffix(#"{"hello":"world"}"#))
    }

    /// The TLS relay presents the test CA's server certificate and relays to its target:
    /// our client reaches nginx's plain listener through it over HTTPS.
    @Test func theTLSRelayTerminatesTLS() async throws {
        let nginx = try await Peers.nginx
        let relay = try await TLSRelayPeer.start(targetPort: nginx.httpPort)
        defer { relay.stop() }
        var request = HTTPRequest(url: relay.url().appendingPathComponent("hello"))
        request.tls.caFile = relay.caFile
        request.tls.pinnedPublicKey = relay.ca.serverKeyPin
        let response = try await HTTPClient().result(request).get()
        #expect(response.statusCode == 200)
        #expect(response.httpVersion == .http1_1)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"hello":"world"}"#)
        #expect(relay.completedHandshakes() == 1)
    }
}
