import Foundation

/// How a front end turns a response into the caller's value: validation (status codes,
/// content type, an envelope's business code) and decoding.
///
/// The plan runs on the callback queue, never on the engine's loop thread. Only responses
/// that pass ``validate`` are offered to the cache for storing.
public struct ResponsePlan<Value>: Sendable {
    /// Throws when the response is not acceptable (``NetworkError/Kind/unacceptableStatus(_:)``,
    /// ``NetworkError/Kind/business(code:message:)``, …). Cheap: it runs before storing too.
    public var validate: @Sendable (HTTPResponse) throws(NetworkError) -> Void
    /// Makes the value from a validated response; throws ``NetworkError/Kind/decodingFailed``.
    public var decode: @Sendable (HTTPResponse) throws(NetworkError) -> Value

    /// Makes a plan from steps that throw ``NetworkError`` only.
    public init(validate: @escaping @Sendable (HTTPResponse) throws(NetworkError) -> Void,
                decode: @escaping @Sendable (HTTPResponse) throws(NetworkError) -> Value) {
        self.validate = validate
        self.decode = decode
    }

    /// Makes a plan from steps that may throw any error — plain closures, no
    /// `throws(NetworkError)` annotation needed. A ``NetworkError`` passes through as it is;
    /// another error thrown by `validate` becomes ``NetworkError/Kind/invalidResponse``, one
    /// thrown by `decode` ``NetworkError/Kind/decodingFailed``, each with the response and the
    /// original error as ``NetworkError/underlyingError``.
    @_disfavoredOverload
    public init(validate: @escaping @Sendable (HTTPResponse) throws -> Void,
                decode: @escaping @Sendable (HTTPResponse) throws -> Value) {
        self.validate = { response throws(NetworkError) in
            do { try validate(response) } catch {
                throw NetworkError.wrapping(error, as: .invalidResponse, "the response was rejected", response: response)
            }
        }
        self.decode = { response throws(NetworkError) in
            do { return try decode(response) } catch {
                throw NetworkError.wrapping(error, as: .decodingFailed, "could not make \(Value.self)", response: response)
            }
        }
    }
}

extension ResponsePlan where Value == HTTPResponse {
    /// Accepts `acceptableStatusCodes` (default `200..<300`; a rejected one fails with
    /// ``StatusAcceptance/error(for:decodedBody:)``) and delivers the response itself.
    public static func response(acceptableStatusCodes: Range<Int> = 200..<300) -> ResponsePlan<HTTPResponse> {
        let acceptance = StatusAcceptance.codes(IndexSet(integersIn: acceptableStatusCodes))
        return ResponsePlan(validate: { response throws(NetworkError) in try acceptance.check(response) }, decode: { $0 })
    }
}

/// One delivery of a call: the value or the error, and what is known about the response.
public struct Delivery<Value> {
    /// The decoded value, or the error.
    public var result: Result<Value, NetworkError>
    /// The response the result was made from (also on HTTP and decoding errors), or `nil`
    /// when none arrived.
    public var response: HTTPResponse?
    /// Whether the response came from the network or the cache.
    public var source: ResponseSource
    /// Whether more deliveries follow for this call (`true` only for the cached copy of a
    /// `.fileFirst` hit, which the network result follows).
    public var isFinal: Bool
    /// The request as sent, after interceptors.
    public var request: HTTPRequest

    /// Makes a delivery.
    // Inlined where the pipeline makes one, to share its metadata lookups (see `makeDelivery`).
    @inline(__always)
    public init(result: Result<Value, NetworkError>, response: HTTPResponse?, source: ResponseSource, isFinal: Bool,
                request: HTTPRequest) {
        self.result = result
        self.response = response
        self.source = source
        self.isFinal = isFinal
        self.request = request
    }
}

extension Delivery: Sendable where Value: Sendable {}
