/// Why a ``Cassette`` could not be opened, or why it failed a request.
///
/// A request a cassette fails carries this error as the `underlyingError` of its
/// `NetworkError`: ``notRecorded(method:url:path:)`` and
/// ``streamedResponse(method:url:path:)`` under kind `.invalidRequest`,
/// ``writeFailed(path:reason:)`` under kind `.fileIO`. URLs in it are redacted by the
/// cassette's ``Cassette/redaction``.
public enum CassetteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// ``Cassette/Mode/replay`` was asked of a file that does not exist (record it first with
    /// ``Cassette/Mode/record`` or ``Cassette/Mode/once``).
    case fileMissing(path: String)
    /// The file is not a cassette this version reads: not JSON, not the shape of one, a
    /// `version` other than 1, or a body that is not valid base64. `reason` says which.
    case damaged(path: String, reason: String)
    /// In ``Cassette/Mode/replay``, no recorded interaction matches the request (compared by
    /// the cassette's ``Cassette/matching``).
    case notRecorded(method: String, url: String, path: String)
    /// In ``Cassette/Mode/replay``, the request streams its response (server-sent events, a
    /// line stream): a cassette neither records nor replays those.
    case streamedResponse(method: String, url: String, path: String)
    /// Saving the file after a recording failed; the interaction was not kept.
    case writeFailed(path: String, reason: String)

    /// One line for people, naming the file.
    public var description: String {
        switch self {
        case .fileMissing(let path):
            "the cassette \(path) does not exist; record it with mode .record or .once before replaying it"
        case .damaged(let path, let reason):
            "the cassette \(path) is damaged: \(reason)"
        case .notRecorded(let method, let url, let path):
            "\(method) \(url) is not recorded in the cassette \(path) (mode .replay never uses the network; "
                + "record it with mode .record or .once)"
        case .streamedResponse(let method, let url, let path):
            "\(method) \(url) streams its response, which the cassette \(path) cannot replay: streamed responses "
                + "are never recorded (under .record and .once they go to the network)"
        case .writeFailed(let path, let reason):
            "cannot save the cassette \(path): \(reason)"
        }
    }
}
