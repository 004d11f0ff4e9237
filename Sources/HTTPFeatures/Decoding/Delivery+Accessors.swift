import Foundation
import HTTPCore

// Shortcuts both front ends show their callers (Alamofire's `DataResponse` has the same ones).
extension Delivery {
    /// The value of a success, or `nil`.
    public var value: Value? {
        if case .success(let value) = result { return value }
        return nil
    }

    /// The error of a failure, or `nil`.
    public var error: NetworkError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// The HTTP status of the response, or `nil` when none arrived.
    public var statusCode: Int? { response?.statusCode }

    /// The response's header fields (empty when no response arrived).
    public var headers: HTTPHeaders { response?.headers ?? HTTPHeaders() }

    /// libcurl's timings of the transfer (zero for cached and stubbed responses), or `nil`
    /// when no response arrived.
    public var timings: TransferTimings? { response?.timings }

    /// Whether the response is a stored copy from the cache.
    public var isFromCache: Bool { source == .cache }
}
