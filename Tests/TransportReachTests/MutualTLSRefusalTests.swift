import Chain
import Foundation
import Testing

/// A server that enforces its client certificate in the handshake — OpenSSL's `s_server
/// -Verify 1`, where nginx's `ssl_verify_client on` finishes the handshake and answers 400 —
/// fails a client without one with the typed `.tls` error, under TLS 1.3 (refused after the
/// handshake, seen at the first read) and TLS 1.2 (refused in it), and lets one with the
/// CA-signed certificate through.
@Suite("Transport reach: a refused client certificate", .timeLimit(.minutes(1)))
struct MutualTLSRefusalTests {
    @Test(arguments: ["-tls1_3", "-tls1_2"])
    func aServerThatRequiresACertificateRefusesOneWithout(version: String) async throws {
        let ca = try await TestCA.shared()
        let server = try await TLSServer(serverOptions: ["-Verify", "1", "-CAfile", ca.certificate.path, version], accepts: 2)
        defer { server.stop() }
        let client = HTTPClient()
        var request = HTTPRequest(url: server.url())
        request.tls = TLSOptions(caFile: server.certificate)
        let refused = try #require(await client.result(request).failure)
        #expect(refused.kind == .tls, "\(refused.debugDescription)")

        request.tls = TLSOptions(caFile: server.certificate, clientCertificate: ca.clientCertificate, clientKey: ca.clientKey)
        let accepted = try await client.result(request).get()
        #expect(accepted.statusCode == 200)
    }
}
