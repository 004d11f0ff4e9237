import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization
import Testing

@Suite("TLS", .timeLimit(.minutes(2)), .serialized)
struct TLSTests {
    @Test func verificationIsOnByDefaultAndTheRightCAIsAccepted() async throws {
        let server = try await TLSServer(accepts: 20)
        defer { server.stop() }
        let client = HTTPClient()

        let refused = await client.result(HTTPRequest(url: server.url()))
        #expect(refused.failure?.kind == .tls)
        #expect(refused.failure?.curlCode == 60)

        var trusted = HTTPRequest(url: server.url())
        trusted.tls.caFile = server.certificate
        let response = try await client.result(trusted).get()
        #expect(response.statusCode == 200)
        #expect(response.timings.tlsHandshake > 0 || response.timings.newConnections == 0)
    }

    @Test func pinnedPublicKeysAreEnforced() async throws {
        let server = try await TLSServer(accepts: 20)
        defer { server.stop() }
        let client = HTTPClient()

        var pinned = HTTPRequest(url: server.url())
        pinned.tls.caFile = server.certificate
        pinned.tls.pinnedPublicKey = try await server.publicKeyPin()
        #expect(try await client.result(pinned).get().statusCode == 200)

        var wrongPin = pinned
        wrongPin.tls.pinnedPublicKey = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        let refused = await client.result(wrongPin)
        #expect(refused.failure?.kind == .tls)
        #expect(refused.failure?.curlCode == 90)
    }
}
