/// Why a ``MockServer`` could not start, or a test's wait for a request ended without one.
public enum MockServerError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The listening socket (or a thread) could not be set up.
    case startFailed(String)
    /// The TLS front could not be set up: its certificate, key or listener.
    case tlsFailed(String)
    /// No request arrived within `seconds`.
    case noRequest(seconds: Double)

    /// A one-line description, for people.
    public var description: String {
        switch self {
        case .startFailed(let reason): "MockServer could not start: \(reason)"
        case .tlsFailed(let reason): "MockServer could not set up TLS: \(reason)"
        case .noRequest(let seconds): "MockServer received no request within \(seconds) s"
        }
    }
}
