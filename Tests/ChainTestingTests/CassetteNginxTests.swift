import ChainTesting
import Foundation
import Testing
import TestSupport

/// A cassette recorded against a server we did not write — Debian's nginx, over TLS, with
/// Basic authentication — then replayed with nginx stopped.
@Suite("Cassette: against nginx", .timeLimit(.minutes(2)))
struct CassetteNginxTests {
    @Test func recordedOverTLSFromNginxReplaysWithItStopped() async throws {
        let scratch = try CassetteScratch()
        defer { scratch.remove() }
        let nginx = try await NginxPeer.start()
        defer { nginx.stop() }
        let base = try #require(URL(string: "https://localhost:\(nginx.tlsPort)"))
        let credentials = "Basic " + Data("\(NginxPeer.basicUser):\(NginxPeer.basicPassword)".utf8).base64EncodedString()
        let file = scratch.file()

        var recording = cassetteConfiguration(base, try Cassette(fileURL: file, mode: .record))
        recording.tls = TLSOptions(caFile: nginx.caFile)
        recording.proxy = .none
        let hello = try await recording.url("/hello").string()
        let basic = try await recording.url("/basic").header("Authorization", credentials).data()
        #expect(hello == #"{"hello":"world"}"#)
        nginx.stop()

        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains(credentials), "the credentials are hidden in the file")
        #expect(text.contains("nginx"), "nginx's own Server header is kept")

        var replaying = cassetteConfiguration(base, try Cassette(fileURL: file, mode: .replay))
        replaying.tls = TLSOptions(caFile: nginx.caFile)
        replaying.proxy = .none
        #expect(try await replaying.url("/hello").string() == hello)
        #expect(try await replaying.url("/basic").header("Authorization", credentials).data() == basic)
        let missing = await #expect(throws: NetworkError.self) { try await replaying.url("/echo-host").data() }
        #expect(missing?.kind == .invalidRequest)
    }
}
