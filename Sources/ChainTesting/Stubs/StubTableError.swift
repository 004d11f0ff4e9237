/// Why a ``StubTable`` failed a request (the `underlyingError` of the ``NetworkError`` the
/// call fails with, of kind ``NetworkError/Kind/invalidRequest``).
public enum StubTableError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No route matched and the table's policy is ``StubTable/UnmatchedPolicy/fail``.
    case unmatched(method: String, url: String)
    /// The matched route's closure threw.
    case handlerFailed(method: String, url: String, reason: String)
    /// The matched route was given no responses.
    case noResponses(method: String, url: String)

    /// A one-line description, for people.
    public var description: String {
        switch self {
        case .unmatched(let method, let url): "no stub matches \(method) \(url)"
        case .handlerFailed(let method, let url, let reason): "the stub for \(method) \(url) threw: \(reason)"
        case .noResponses(let method, let url): "the stub matching \(method) \(url) has no responses"
        }
    }
}
