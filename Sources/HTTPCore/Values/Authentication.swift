/// Credentials for the origin's authentication challenge (`401` with `WWW-Authenticate`),
/// answered by libcurl (`CURLOPT_HTTPAUTH`, `CURLOPT_USERNAME`, `CURLOPT_PASSWORD`).
///
/// ```swift
/// Request.url(intranet).authentication(.digest(user: "me", password: secret))
/// ```
///
/// ``basic(user:password:)`` is sent with the first request, as curl does. Digest and `any`
/// wait for the server's challenge, which costs one more round trip (a `401` first); NTLM
/// sends its first message with the first request and answers the challenge on the same
/// connection (two requests); Negotiate answers a challenge only with a Kerberos ticket, and
/// without one the server's `401` is delivered. Credentials go to the origin of the call's
/// first request only: a redirect to another scheme, host or port drops them for the rest of
/// the chain. A challenge that the credentials do not meet is delivered as the server's final
/// `401` (a ``NetworkError/Kind/unacceptableStatus(_:)`` where the status is validated). They
/// are never logged (the curl rendering shows `--user 'me:***'`) and are part of the cache
/// key's credential digest.
public struct Authentication: Sendable, Hashable, CustomStringConvertible {
    /// The schemes libcurl answers.
    public enum Scheme: Sendable, Hashable {
        /// RFC 7617: user and password in every request, readable by anyone on the path of
        /// plain `http`.
        case basic
        /// RFC 7616 (MD5 and SHA-256): the password is never sent.
        case digest
        /// Microsoft NTLM (v2): a handshake of three messages on one connection.
        case ntlm
        /// SPNEGO with Kerberos (GSS-API), from the process's credential cache (`kinit`);
        /// the user name and password are not used.
        case negotiate
        /// Whichever of the above the server offers, the safest first (libcurl's
        /// `CURLAUTH_ANY`); always costs the round trip of the challenge.
        case any
    }

    /// The scheme.
    public var scheme: Scheme
    /// The user name; empty for ``Scheme/negotiate``.
    public var user: String
    /// The password; empty for ``Scheme/negotiate``.
    public var password: String

    /// Makes credentials for `scheme`; the static factories are the usual way.
    public init(scheme: Scheme, user: String, password: String) {
        self.scheme = scheme
        self.user = user
        self.password = password
    }

    /// Basic authentication, sent with the first request.
    public static func basic(user: String, password: String) -> Authentication {
        Authentication(scheme: .basic, user: user, password: password)
    }

    /// Digest authentication, in answer to the server's challenge.
    public static func digest(user: String, password: String) -> Authentication {
        Authentication(scheme: .digest, user: user, password: password)
    }

    /// NTLM authentication; `user` may name a domain as `DOMAIN\user`.
    public static func ntlm(user: String, password: String) -> Authentication {
        Authentication(scheme: .ntlm, user: user, password: password)
    }

    /// Negotiate (SPNEGO/Kerberos) with the process's Kerberos credentials.
    public static let negotiate = Authentication(scheme: .negotiate, user: "", password: "")

    /// Whichever scheme the server offers, picked by libcurl, the safest first.
    public static func any(user: String, password: String) -> Authentication {
        Authentication(scheme: .any, user: user, password: password)
    }

    /// The scheme and user, never the password.
    public var description: String {
        scheme == .negotiate ? "negotiate" : "\(scheme) \(user.debugDescription)"
    }
}
