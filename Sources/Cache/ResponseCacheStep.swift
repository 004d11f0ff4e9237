import HTTPCore

/// ``ResponseCache`` with a policy bound in, as the core pipeline's ``CacheStep``.
struct ResponseCacheStep: CacheStep {
    let cache: ResponseCache
    let policy: CachePolicy
    let ignoredParameters: Set<String>
    let keyHeaders: Set<String>

    func run(_ request: HTTPRequest,
             isCacheable: @escaping @Sendable (HTTPResponse) -> Bool,
             network: @escaping @Sendable (HTTPRequest, @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) -> Void,
             deliver: @escaping @Sendable (_ result: Result<HTTPResponse, NetworkError>, _ isFinal: Bool) -> Void) {
        // The pipeline's `deliver` only queues the delivery for the callback queue.
        let call = CachedCall(deliveringInline: deliver)
        cache.execute(PolicyRun(policy: policy, request: request, ignoredParameters: ignoredParameters,
                                keyHeaders: keyHeaders, isCacheable: isCacheable,
                                network: { request, completion in
                                    network(request, completion)
                                    return nil
                                },
                                call: call))
    }
}
