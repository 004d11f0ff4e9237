import CChainTLS
import Foundation
import Synchronization

/// TLS for a plain HTTP server on 127.0.0.1: a front, in this process, that listens on
/// 127.0.0.1 at a free port, terminates TLS with a self-signed certificate made at start, and
/// relays each connection's plaintext to `127.0.0.1:upstreamPort` over a connection of its own
/// (one upstream connection per client connection, so keep-alive reuse stays one to one).
///
/// An end of input or a reset on either side reaches the other side; a client that does not
/// complete a TLS handshake within the timeout (default 10 s) is closed. The certificate names
/// `IP:127.0.0.1` and `DNS:localhost`; a client trusts it by taking ``certificateURL`` as its
/// CA file (`TLSOptions(caFile:)`). HTTP/2 is not offered.
final class TLSFront: Sendable {
    /// The port the front listens on, on 127.0.0.1.
    let port: UInt16
    /// The certificate (PEM), for a client's CA file; in the directory given at start.
    let certificateURL: URL
    /// The certificate's private key (PEM, mode 0600), beside the certificate.
    let keyURL: URL
    /// The bytes of ``certificateURL``.
    let certificatePEM: Data

    private let front: Mutex<Handle?>

    /// The C front. `@unchecked Sendable`: the pointer is only handed to
    /// `chain_tls_front_stop`, once, taken out of the Mutex that holds it; the C front is
    /// thread-safe and its state never touched from Swift.
    private struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Makes a fresh identity (`certificate.pem` and `key.pem`, replacing files of those
    /// names) in `directory`, which must exist and which the caller owns and removes, and
    /// starts the front.
    /// - Parameters:
    ///   - upstreamPort: the plain server's port on 127.0.0.1.
    ///   - directory: where the certificate and key are written.
    ///   - handshakeTimeout: how long an accepted client has to complete its handshake.
    ///     Default 10 s.
    /// - Throws: ``TLSFrontError`` when the identity cannot be made or the front cannot start.
    init(upstreamPort: UInt16, directory: URL, handshakeTimeout: Duration = .seconds(10)) throws(TLSFrontError) {
        guard upstreamPort != 0 else { throw TLSFrontError(message: "the upstream port is 0") }
        let milliseconds = handshakeTimeout.components.seconds * 1000
            + handshakeTimeout.components.attoseconds / 1_000_000_000_000_000
        guard milliseconds > 0, milliseconds <= Int64(Int32.max) else {
            throw TLSFrontError(message: "the handshake timeout must be from 1 ms to \(Int32.max) ms, not \(handshakeTimeout)")
        }
        certificateURL = directory.appendingPathComponent("certificate.pem")
        keyURL = directory.appendingPathComponent("key.pem")
        let certificatePath = certificateURL.path
        let keyPath = keyURL.path

        var message = [CChar](repeating: 0, count: 1024)
        guard chain_tls_make_identity(certificatePath, keyPath, &message, message.count) == 0 else {
            throw TLSFrontError(message: Self.text(message))
        }
        do {
            certificatePEM = try Data(contentsOf: certificateURL)
        } catch {
            throw TLSFrontError(message: "reading \(certificatePath): \(error.localizedDescription)")
        }
        var listening: UInt16 = 0
        guard let started = chain_tls_front_start_with_timeout(certificatePath, keyPath, upstreamPort, Int32(milliseconds),
                                                               &listening, &message, message.count) else {
            throw TLSFrontError(message: Self.text(message))
        }
        port = listening
        front = Mutex(Handle(pointer: started))
    }

    deinit {
        stop()
    }

    /// Stops accepting, closes every relayed connection and waits for the front's threads.
    /// Idempotent, safe from any thread; returns promptly (no wait for a peer).
    func stop() {
        let handle = front.withLock { front in
            let taken = front
            front = nil
            return taken
        }
        if let handle { chain_tls_front_stop(handle.pointer) }
    }

    private static func text(_ message: [CChar]) -> String {
        let bytes = message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return bytes.isEmpty ? "failed without a message" : String(decoding: bytes, as: UTF8.self)
    }
}
