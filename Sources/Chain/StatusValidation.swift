import HTTPCore

/// Which HTTP statuses a request accepts — Chain's spelling of ``StatusAcceptance``, which
/// does the check and makes the ``NetworkError/Kind/unacceptableStatus(_:)`` error for
/// anything else. Default ``successCodes``.
public enum StatusValidation: Sendable {
    /// Statuses `200..<300` (the default).
    case successCodes
    /// Statuses `200..<400`.
    case successAndRedirectCodes
    /// Exactly these statuses.
    case codes(Set<Int>)
    /// Whatever the closure accepts (it sees the whole response).
    case custom(@Sendable (HTTPResponse) -> Bool)
    /// Every status (no check), as Alamofire does without `validate()`.
    case none

    /// The one status check this spells.
    var acceptance: StatusAcceptance {
        switch self {
        case .successCodes: .successCodes
        case .successAndRedirectCodes: .successAndRedirectCodes
        case .codes(let codes): .codes(codes)
        case .custom(let isAcceptable): .custom(isAcceptable)
        case .none: .anyStatus
        }
    }
}
