/// Why a ``TLSFront`` could not start: its identity could not be made or read, or the front
/// could not listen or start its thread. The message names the step and the cause.
struct TLSFrontError: Error, Sendable, CustomStringConvertible {
    /// What failed and why, e.g. "loading the certificate /tmp/x/certificate.pem: …".
    let message: String

    var description: String { "TLS front: \(message)" }
}
