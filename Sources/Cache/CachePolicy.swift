import Foundation

/// How one request uses the response cache. The default everywhere is ``networkOnly``.
///
/// Whatever the policy, only responses the caller's plan accepts (validation passed and, with
/// an envelope, a success code) are stored, and never a `206`, a `4xx`/`5xx`, a truncated
/// body, a cancelled transfer, a download to a file, or a body over the store's per-entry limit.
/// The app-level policies (all but ``http``) ignore `Cache-Control`: they exist precisely to
/// keep offline copies of APIs that say `no-cache`.
public enum CachePolicy: Sendable, Hashable {
    /// Always the network; the cache is never read. A cacheable success is still stored, so
    /// a later ``cacheOnly`` or ``fileFirst`` call finds it (choose ``http`` or no cache step
    /// at all to keep responses off the disk).
    case networkOnly
    /// Delivers the stored copy at once (source `.cache`), then the network result (source
    /// `.network`; a failure is delivered as a failure, so the caller knows the copy it shows
    /// is stale). Exactly two deliveries in that order on a hit, one on a miss.
    case fileFirst
    /// The network; on a transport failure (``NetworkError/isTransportFailure``: no complete
    /// HTTP response) the stored copy, flagged `.cache`. HTTP errors are delivered as they are.
    case networkFirst
    /// A stored copy stored less than `maxAge` seconds ago, else the network.
    case cacheElseNetwork(maxAge: TimeInterval)
    /// The stored copy, or ``NetworkError/Kind/cacheMiss``; never the network.
    case cacheOnly
    /// HTTP caching as RFC 9111 describes it for a private cache: `Cache-Control`
    /// (`max-age`, `no-store`, `no-cache`, `must-revalidate`, request `max-stale`/`min-fresh`/
    /// `only-if-cached`), `Expires`, heuristic freshness from `Last-Modified`, `Vary`, and
    /// conditional requests (`If-None-Match`/`If-Modified-Since`) whose `304` refreshes the
    /// stored entry and serves its body. Only `GET` and `HEAD` are read or stored.
    case http
}
