/// The cache's plug into the pipeline. The core never imports the cache module: the cache
/// implements this protocol with its policy bound in (`ResponseCache.step(for:)`).
public protocol CacheStep: Sendable {
    /// Runs one call under the step's policy.
    ///
    /// - Parameters:
    ///   - request: the adapted request.
    ///   - isCacheable: whether a network response may be stored (the plan's validation passed).
    ///     The pipeline validates the network result on its callback queue before handing it
    ///     back, so this only reads that verdict; ask it about that result only.
    ///   - network: performs the transfer (with interceptors and retries); call it at most once.
    ///   - deliver: called once, or twice for a `.fileFirst` hit (the stored copy with
    ///     `isFinal == false`, then the network result with `isFinal == true`), in order and
    ///     never concurrently. Stored copies have `source == .cache`; a network result is
    ///     delivered as `network` returned it (its delivery reuses the validation's verdict).
    func run(_ request: HTTPRequest,
             isCacheable: @escaping @Sendable (HTTPResponse) -> Bool,
             network: @escaping @Sendable (HTTPRequest, @escaping @Sendable (Result<HTTPResponse, NetworkError>) -> Void) -> Void,
             deliver: @escaping @Sendable (_ result: Result<HTTPResponse, NetworkError>, _ isFinal: Bool) -> Void)
}
