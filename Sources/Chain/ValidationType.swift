/// The statuses a ``TargetType`` accepts — Moya's `ValidationType`, checked as the
/// ``StatusValidation`` (and so the ``StatusAcceptance``) it converts to.
public enum ValidationType: Sendable, Hashable {
    /// Every status.
    case none
    /// `200..<300`.
    case successCodes
    /// `200..<400`.
    case successAndRedirectCodes
    /// Exactly these statuses.
    case customCodes([Int])

    /// The equivalent ``StatusValidation``.
    var statusValidation: StatusValidation {
        switch self {
        case .none: .none
        case .successCodes: .successCodes
        case .successAndRedirectCodes: .successAndRedirectCodes
        case .customCodes(let codes): .codes(Set(codes))
        }
    }
}
