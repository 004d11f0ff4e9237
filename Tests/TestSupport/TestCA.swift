import Foundation
import Synchronization

/// A certificate authority made with `openssl` at test time, with a server certificate and a
/// client certificate it signed, all P-256 keys valid for ten years from now.
///
/// The server certificate (`CN=localhost`) names `localhost`, `IP:127.0.0.1`, `chain.test`
/// and `*.chain.test` (made-up names a test maps to 127.0.0.1, e.g. with a request's
/// resolve override). The client certificate (`CN=chain-client`) is for mutual TLS. An
/// unrelated key (signed by nobody) gives a pin that matches no server.
///
/// ``shared()`` makes one per process (its directory is removed at exit); `init()` makes a
/// fresh one.
public final class TestCA: Sendable {
    /// The directory holding every file below.
    public let directory: URL
    /// The CA certificate (PEM): a request's `tls.caFile`, nginx's `ssl_client_certificate`.
    public let certificate: URL
    /// The server certificate (PEM), signed by the CA.
    public let serverCertificate: URL
    /// The server certificate's private key (PEM, unencrypted).
    public let serverKey: URL
    /// The client certificate (PEM), signed by the CA: a request's `tls.clientCertificate`.
    public let clientCertificate: URL
    /// The client certificate's private key (PEM, unencrypted): a request's `tls.clientKey`.
    public let clientKey: URL
    /// A key no certificate uses (PEM).
    public let unrelatedKey: URL
    /// The server key's pin, `sha256//<base64 of the SHA-256 of its DER SubjectPublicKeyInfo>`:
    /// a request's `tls.pinnedPublicKey` that matches every peer using ``serverCertificate``.
    public let serverKeyPin: String
    /// ``unrelatedKey``'s pin, in the same form: matches no server.
    public let unrelatedKeyPin: String

    private static let sharedCA = Mutex<TestCA?>(nil)

    /// The CA of this process, made on first use off the concurrency pool.
    /// - Throws: ``TestFailure`` when `openssl` fails.
    public static func shared() async throws -> TestCA {
        try await offPool { Result { try sharedBlocking() } }.get()
    }

    /// ``shared()`` for blocking code (the peers' initializers).
    /// - Throws: ``TestFailure`` when `openssl` fails.
    public static func sharedBlocking() throws -> TestCA {
        try sharedCA.withLock { shared in
            if let shared { return shared }
            let made = try TestCA()
            PeerProcess.removeAtExit(made.directory)
            shared = made
            return made
        }
    }

    /// Makes a fresh CA and its certificates in a new temporary directory (blocking: about
    /// a tenth of a second of `openssl`). Removing the directory is the caller's business.
    /// - Throws: ``TestFailure`` when `openssl` fails.
    public init() throws {
        let directory = try temporaryDirectory("ca")
        self.directory = directory
        func file(_ name: String) -> URL { directory.appendingPathComponent(name) }
        certificate = file("ca.pem")
        serverCertificate = file("server.pem")
        serverKey = file("server.key")
        clientCertificate = file("client.pem")
        clientKey = file("client.key")
        unrelatedKey = file("unrelated.key")
        let newKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]

        try PeerProcess.runTool(["openssl", "req", "-x509"] + newKey + [
            "-keyout", "ca.key", "-out", "ca.pem", "-days", "3650", "-subj", "/CN=Chain Test CA",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
        ], in: directory)
        try Data("""
            subjectAltName=DNS:localhost,IP:127.0.0.1,DNS:chain.test,DNS:*.chain.test
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth

            """.utf8).write(to: file("server.ext"))
        try Data("""
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=clientAuth

            """.utf8).write(to: file("client.ext"))
        for (name, subject, serial) in [("server", "/CN=localhost", "2"), ("client", "/CN=chain-client", "3")] {
            try PeerProcess.runTool(["openssl", "req", "-new"] + newKey + [
                "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject,
            ], in: directory)
            try PeerProcess.runTool([
                "openssl", "x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-set_serial", serial, "-days", "3650", "-extfile", "\(name).ext", "-out", "\(name).pem",
            ], in: directory)
        }
        try PeerProcess.runTool(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256",
                                 "-out", "unrelated.key"], in: directory)
        serverKeyPin = try TestCA.pin(ofKey: "server.key", in: directory)
        unrelatedKeyPin = try TestCA.pin(ofKey: "unrelated.key", in: directory)
    }

    /// `sha256//<base64>` of the public half of the private key file `key` (in steps, not a
    /// pipeline: `sh` has no `pipefail`, and a failed first step would pin the empty input).
    private static func pin(ofKey key: String, in directory: URL) throws -> String {
        try PeerProcess.runTool(["openssl", "pkey", "-in", key, "-pubout", "-outform", "der", "-out", "\(key).spki"], in: directory)
        try PeerProcess.runTool(["openssl", "dgst", "-sha256", "-binary", "-out", "\(key).sha256", "\(key).spki"], in: directory)
        let digest = try PeerProcess.runTool(["openssl", "base64", "-A", "-in", "\(key).sha256"], in: directory)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard digest.count == 44 else { throw TestFailure("openssl made no pin for \(key): \(digest)") }
        return "sha256//" + digest
    }
}
