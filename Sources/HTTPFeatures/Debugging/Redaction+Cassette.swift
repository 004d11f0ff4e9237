import Foundation
import HTTPCore

/// What a record of a request that is kept (a `ChainTesting` cassette) needs: the body as
/// bytes with its secrets hidden, by the rules the `curl` renderer and the logger use.
extension Redaction {
    /// `body` with the values of hidden parameters replaced by ``replacement``, judged by what
    /// the bytes are: a JSON object or array is redacted as JSON (re-serialised with sorted keys
    /// when something was hidden, else kept as it was), a form-encoded body as a form. Any other
    /// body cannot be checked for secrets and is returned as it is.
    package func redactingBody(_ body: Data) -> Data {
        if Redaction.startsLikeJSONContainer(body) { return redactingJSON(body) }
        guard Redaction.isFormEncoded(body) else { return body }
        let text = String(decoding: body, as: UTF8.self)
        let redacted = redactingURLEncoded(text)
        return redacted == text ? body : Data(redacted.utf8)
    }
}
