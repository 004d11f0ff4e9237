import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization
import Testing

/// A local HTTPS server: `openssl s_server` with a self-signed certificate made for the test,
/// bound to 127.0.0.1, serving a status page (`-www`). It ends itself after `accepts` connections.
final class LocalTLSServer: Sendable {
    let directory: URL
    let certificate: URL
    let port: Int
    /// `sha256//<base64>` of the server's public key, for pinning.
    let publicKeyPin: String
    private let process: Process

    init(accepts: Int = 20) async throws {
        directory = try temporaryDirectory()
        certificate = directory.appendingPathComponent("cert.pem")
        let key = directory.appendingPathComponent("key.pem")
        try LocalTLSServer.run("/usr/bin/env", ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                                               "-keyout", key.path, "-out", certificate.path, "-days", "2",
                                               "-subj", "/CN=127.0.0.1",
                                               "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        let digest = try LocalTLSServer.run("/bin/sh", ["-c",
            "openssl x509 -in '\(certificate.path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"])
        publicKeyPin = "sha256//" + digest.trimmingCharacters(in: .whitespacesAndNewlines)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", certificate.path, "-key", key.path,
                             "-www", "-naccept", String(accepts)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        port = try await LocalTLSServer.acceptedPort(from: output.fileHandleForReading)
    }

    func stop() {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: directory)
    }

    var url: URL { URL(string: "https://127.0.0.1:\(port)/") ?? URL(fileURLWithPath: "/") }

    private static func acceptedPort(from handle: FileHandle) async throws -> Int {
        guard let port = await OpenSSLServerOutput.acceptedPort(from: handle) else {
            throw TestFailure("openssl s_server did not start")
        }
        return port
    }

    @discardableResult
    private static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("\(arguments.first ?? tool) failed") }
        return String(decoding: data, as: UTF8.self)
    }
}

@Suite("TLS", .timeLimit(.minutes(2)), .serialized)
struct TLSTests {
    @Test func verificationIsOnByDefaultAndTheRightCAIsAccepted() async throws {
        let server = try await LocalTLSServer()
        defer { server.stop() }
        let client = HTTPClient()

        let refused = await client.result(HTTPRequest(url: server.url))
        #expect(refused.failure?.kind == .tls)
        #expect(refused.failure?.curlCode == 60)

        var trusted = HTTPRequest(url: server.url)
        trusted.tls.caFile = server.certificate
        let response = try await client.result(trusted).get()
        #expect(response.statusCode == 200)
        #expect(response.timings.tlsHandshake > 0 || response.timings.newConnections == 0)
    }

    @Test func pinnedPublicKeysAreEnforced() async throws {
        let server = try await LocalTLSServer()
        defer { server.stop() }
        let client = HTTPClient()

        var pinned = HTTPRequest(url: server.url)
        pinned.tls.caFile = server.certificate
        pinned.tls.pinnedPublicKey = server.publicKeyPin
        #expect(try await client.result(pinned).get().statusCode == 200)

        var wrongPin = pinned
        wrongPin.tls.pinnedPublicKey = "sha256//AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="
        let refused = await client.result(wrongPin)
        #expect(refused.failure?.kind == .tls)
        #expect(refused.failure?.curlCode == 90)
    }
}
