import HTTPCore

/// Which HTTP statuses a request accepts; anything else fails with
/// ``NetworkError/Kind/unacceptableStatus(_:)``. Default ``successCodes``.
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

    /// The check as a closure.
    var isAcceptable: @Sendable (HTTPResponse) -> Bool {
        switch self {
        case .successCodes: { (200..<300).contains($0.statusCode) }
        case .successAndRedirectCodes: { (200..<400).contains($0.statusCode) }
        case .codes(let codes): { codes.contains($0.statusCode) }
        case .custom(let isAcceptable): isAcceptable
        case .none: { _ in true }
        }
    }
}
