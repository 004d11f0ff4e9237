import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A local HTTPS server for tests: `openssl s_server` on 127.0.0.1 with a certificate made for
/// the test (any validity period, any subjectAltName), serving either a status page (`-www`)
/// or, with `files`, complete raw HTTP responses from its directory (`-HTTP`). It ends itself
/// after `accepts` connections; `stop()` ends it sooner.
public final class TLSServer: Sendable {
    /// The certificate's validity period relative to now.
    public enum Validity: Sendable {
        case valid, expired, notYetValid

        /// `openssl ca` start and end dates (the only way OpenSSL 3.0 makes past or future
        /// certificates: `req -days` refuses non-positive values and faketime is not installed).
        var dates: (start: String, end: String) {
            switch self {
            case .valid: ("20200101000000Z", "20991231000000Z")
            case .expired: ("20200101000000Z", "20200201000000Z")
            case .notYetValid: ("20900101000000Z", "20991231000000Z")
            }
        }
    }

    /// The directory holding the key, the certificate and the served files; removed by `stop()`.
    public let directory: URL
    /// The self-signed certificate, for a request's `tls.caFile`.
    public let certificate: URL
    /// The port s_server bound on 127.0.0.1.
    public let port: Int
    private let process: Process

    /// Makes a certificate and starts the server. Defaults: valid dates, `IP:127.0.0.1`, the
    /// status page, no extra s_server options, 4 connections.
    public init(validity: Validity = .valid, subjectAltName: String = "IP:127.0.0.1", files: [String: String] = [:],
                serverOptions: [String] = [], accepts: Int = 4) async throws {
        directory = try temporaryDirectory("tls")
        certificate = directory.appendingPathComponent("cert.pem")
        let key = directory.appendingPathComponent("key.pem")
        let request = directory.appendingPathComponent("request.csr")
        try Data("""
            [ ca ]
            default_ca = local
            [ local ]
            dir = .
            database = index.txt
            new_certs_dir = .
            serial = serial
            default_md = sha256
            policy = anything
            copy_extensions = copy
            unique_subject = no
            [ anything ]
            commonName = supplied

            """.utf8).write(to: directory.appendingPathComponent("ca.cnf"))
        try Data().write(to: directory.appendingPathComponent("index.txt"))
        try Data("01\n".utf8).write(to: directory.appendingPathComponent("serial"))
        try await TLSServer.run(["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                           "-keyout", key.path, "-out", request.path, "-subj", "/CN=chain-test",
                           "-addext", "subjectAltName=\(subjectAltName)", "-addext", "basicConstraints=critical,CA:TRUE"],
                          in: directory)
        let dates = validity.dates
        try await TLSServer.run(["openssl", "ca", "-batch", "-config", "ca.cnf", "-selfsign", "-keyfile", key.path,
                           "-in", request.path, "-out", certificate.path, "-startdate", dates.start, "-enddate", dates.end],
                          in: directory)
        for (name, content) in files {
            try Data(content.utf8).write(to: directory.appendingPathComponent(name))
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "s_server", "-accept", "127.0.0.1:0", "-cert", certificate.path, "-key", key.path,
                             files.isEmpty ? "-www" : "-HTTP", "-naccept", String(accepts)] + serverOptions
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        self.process = process
        guard let port = await TLSServer.acceptedPort(from: output.fileHandleForReading) else {
            throw TestFailure("openssl s_server did not start")
        }
        self.port = port
    }

    /// Ends the server and removes its directory.
    public func stop() {
        // SIGKILL, not `terminate()`: after `terminate()`'s SIGTERM, `openssl s_server -www`
        // was left running after every run of the TLS tests, orphaned.
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: directory)
    }

    /// `https://127.0.0.1:PORT` + `path` (default `/`).
    public func url(_ path: String = "/") -> URL {
        URL(string: "https://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// `sha256//<base64>` of the server's public key, for pinning.
    public func publicKeyPin() async throws -> String {
        let digest = try await TLSServer.run(["sh", "-c",
            "openssl x509 -in '\(certificate.path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64"],
            in: directory)
        return "sha256//" + digest.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs a tool through `env` and returns its standard output; throws when it fails. The
    /// tool runs and is waited for off the concurrency pool (see `offPool`).
    @discardableResult
    private static func run(_ arguments: [String], in directory: URL) async throws -> String {
        try await offPool { Result { try runBlocking(arguments, in: directory) } }.get()
    }

    private static func runBlocking(_ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestFailure("\(arguments.prefix(2).joined(separator: " ")) failed") }
        return String(decoding: data, as: UTF8.self)
    }

    /// The port from s_server's `ACCEPT 127.0.0.1:<port>` line, or `nil` when it ended without
    /// one. The pipe is drained until EOF afterwards, so s_server never blocks on a full pipe.
    private static func acceptedPort(from handle: FileHandle) async -> Int? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var text = ""
                var resumed = false
                while true {
                    let data = handle.availableData
                    if data.isEmpty { break }
                    guard !resumed else { continue }
                    text += String(decoding: data, as: UTF8.self)
                    if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("ACCEPT") }),
                       let port = line.split(separator: ":").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                        resumed = true
                        continuation.resume(returning: port)
                    }
                }
                if !resumed { continuation.resume(returning: nil) }
            }
        }
    }
}
