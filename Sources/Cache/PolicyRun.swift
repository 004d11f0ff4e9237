import HTTPCore

/// One call under a policy: its inputs and its handle.
struct PolicyRun: Sendable {
    let policy: CachePolicy
    let request: HTTPRequest
    let ignoredParameters: Set<String>
    let isCacheable: @Sendable (HTTPResponse) -> Bool
    let network: ResponseCache.Network
    let call: CachedCall

    /// Computed where it is needed (on the store's queue), since a file body is read to
    /// hash it.
    var key: CacheKey? { CacheKey(request: request, ignoredParameters: ignoredParameters) }
}
