import Foundation

extension HTTPRequest {
    /// The typed error for a caller's number that no request can mean — a negative or NaN
    /// timeout, a negative size limit — or `nil`. The front ends check it where they build a
    /// request, so such a value fails the call with ``NetworkError/Kind/invalidRequest``
    /// instead of reaching a conversion. Infinite and huge values are valid: they mean no limit.
    package var callerValueError: NetworkError? {
        for (name, seconds) in [("connect", timeouts.connect), ("idle", timeouts.idle), ("total", timeouts.total)]
            where seconds.isNaN || seconds < 0 {
            return NetworkError(.invalidRequest, "the \(name) timeout must be zero or more seconds, not \(seconds) "
                                    + "(.infinity means no limit)")
        }
        if maximumResponseSize < 0 {
            return NetworkError(.invalidRequest, "the maximum response size must be zero or more bytes, not \(maximumResponseSize)")
        }
        return nil
    }
}
