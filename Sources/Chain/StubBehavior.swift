import Foundation

/// Whether a request answers from its sample data instead of the network — Moya's
/// `StubBehavior`, for app tests and offline demos.
///
/// Set it per request (`Request.stub(_:)`) or for every request of a configuration
/// (``ChainConfiguration/stubBehavior``). A stubbed request never opens a connection;
/// interceptors, validation, decoding and hooks still run. The sample data comes from
/// ``Request/sampleData(_:statusCode:headers:)`` or a target's ``TargetType/sampleData``.
public enum StubBehavior: Sendable, Hashable {
    /// Use the network (the default).
    case never
    /// Answer with the sample data at once (still asynchronously, on the callback queue).
    case immediate
    /// Answer with the sample data after `seconds`.
    case delayed(seconds: TimeInterval)
}
