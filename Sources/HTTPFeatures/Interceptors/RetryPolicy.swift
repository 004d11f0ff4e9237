import Foundation
import HTTPCore

/// The built-in retry interceptor: exponential backoff with jitter, on transport failures and
/// on the statuses that mean "try again".
///
/// Defaults: 2 retries; only idempotent methods (`GET`, `HEAD`, `PUT`, `DELETE`, `OPTIONS`)
/// unless ``retriesNonIdempotentMethods`` is set; statuses 408, 429, 500, 502, 503, 504;
/// transport failures (cannot connect, DNS, timeouts, a lost connection, a truncated body);
/// delays of `0.5 s × 2^(retry−1)` with full jitter, each at most 30 s; `Retry-After` (seconds or
/// an HTTP date) honoured instead when present; never more than 60 s of delay in total — a
/// `Retry-After` beyond what is left delivers the response instead of waiting.
///
/// Retries are counted per policy (``RetryContext/retriesRequested``): retries another
/// interceptor asked for (a token refresher's replay) do not use up this policy's. Numbers are
/// read safely: a NaN or negative delay, factor or limit counts as 0; an infinite one as no
/// limit (delays are still capped by ``maximumDelay`` and ``maximumTotalDelay``).
public struct RetryPolicy: RequestInterceptor {
    /// Retries this policy asks for in one call. Default 2; 0 or less never retries.
    public var maximumRetries: Int
    /// The first retry's delay before jitter, in seconds. Default 0.5.
    public var baseDelay: TimeInterval
    /// The growth factor per retry. Default 2.
    public var multiplier: Double
    /// The longest single delay, in seconds. Default 30.
    public var maximumDelay: TimeInterval
    /// The most a call waits in delays altogether, in seconds. Default 60.
    public var maximumTotalDelay: TimeInterval
    /// Statuses that are retried. Default 408, 429, 500, 502, 503, 504.
    public var retryableStatusCodes: Set<Int>
    /// Whether `POST`, `PATCH` and custom methods are retried too. Default `false`: repeating
    /// them may repeat their effect.
    public var retriesNonIdempotentMethods: Bool
    /// Whether delays are randomised between zero and the backoff ("full jitter"), so many
    /// clients do not retry in lockstep. Default `true`.
    public var usesJitter: Bool

    /// Makes a policy; every argument has the default stated on its property.
    public init(maximumRetries: Int = 2, baseDelay: TimeInterval = 0.5, multiplier: Double = 2,
                maximumDelay: TimeInterval = 30, maximumTotalDelay: TimeInterval = 60,
                retryableStatusCodes: Set<Int> = [408, 429, 500, 502, 503, 504],
                retriesNonIdempotentMethods: Bool = false, usesJitter: Bool = true) {
        self.maximumRetries = maximumRetries
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maximumDelay = maximumDelay
        self.maximumTotalDelay = maximumTotalDelay
        self.retryableStatusCodes = retryableStatusCodes
        self.retriesNonIdempotentMethods = retriesNonIdempotentMethods
        self.usesJitter = usesJitter
    }

    public func retry(_ request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
                      completion: @escaping @Sendable (RetryDecision) -> Void) {
        completion(decision(for: request, result: result, context: context, now: Date(),
                            random: { Double.random(in: 0...1) }))
    }

    /// The decision, as a pure function of its inputs (the clock and the randomness are passed in).
    public func decision(for request: HTTPRequest, result: Result<HTTPResponse, NetworkError>, context: RetryContext,
                         now: Date, random: () -> Double) -> RetryDecision {
        guard context.retriesRequested < maximumRetries else { return .doNotRetry }
        guard retriesNonIdempotentMethods || request.method.isIdempotent else { return .doNotRetry }
        let remaining = RetryPolicy.nonNegative(maximumTotalDelay) - RetryPolicy.nonNegative(context.totalDelay)
        switch result {
        case .success(let response):
            guard retryableStatusCodes.contains(response.statusCode) else { return .doNotRetry }
            if let retryAfter = RetryPolicy.retryAfter(response.headers["Retry-After"], now: now) {
                return retryAfter <= remaining ? .retry(after: retryAfter) : .doNotRetry
            }
        case .failure(let error):
            guard RetryPolicy.isRetryable(error) else { return .doNotRetry }
        }
        // Exponent and product may overflow to infinity (a huge factor or retry count): the
        // cap below then applies; NaN (0 × ∞) falls to 0 with the negatives.
        let growth = pow(RetryPolicy.nonNegative(multiplier), Double(context.retriesRequested))
        let backoff = min(RetryPolicy.nonNegative(maximumDelay), RetryPolicy.nonNegative(baseDelay * growth))
        let delay = usesJitter ? RetryPolicy.nonNegative(backoff * min(1, RetryPolicy.nonNegative(random()))) : backoff
        return delay <= remaining ? .retry(after: delay) : .doNotRetry
    }

    /// `value`, with NaN and negative values read as 0 (infinity stays: no limit).
    private static func nonNegative(_ value: Double) -> Double {
        value > 0 ? value : 0
    }

    /// Transport failures worth another try; TLS and invalid replies are not (they repeat).
    static func isRetryable(_ error: NetworkError) -> Bool {
        switch error.kind {
        case .cannotConnect, .dnsFailure, .timedOut, .connectionLost, .truncatedResponse, .transport: true
        default: false
        }
    }

    /// `Retry-After` as delay-seconds or an HTTP date (RFC 9110 §10.2.3); `nil` when absent or
    /// unreadable (a negative or fractional number among them). A date in the past means
    /// "now"; delay-seconds too large for an `Int` are `.infinity` (longer than any budget).
    public static func retryAfter(_ value: String?, now: Date) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            return Int(value).map(TimeInterval.init) ?? .infinity
        }
        guard let date = HTTPDate.parse(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
