import Foundation

/// What the engine needs from a request's URL, worked out once when the request is checked.
///
/// Foundation's URL accessors parse on every call; the transfer used to ask for the scheme,
/// host and string form several times per request, which showed up in profiles.
struct TransferTarget: Sendable {
    /// The URL as libcurl gets it.
    let urlString: String
    /// Scheme, host and port, lowercased: the unit of the per-host cap.
    let hostKey: String
    /// Whether the scheme is `https` (a connection may then multiplex HTTP/2 streams).
    let isHTTPS: Bool
}
