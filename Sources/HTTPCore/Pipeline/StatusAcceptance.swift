import Foundation

/// Which HTTP statuses pass, and the error for one that does not: the one status check every
/// front-end spelling translates into (Chain's `validate(_:)` and `TargetType`'s
/// `validationType`, AFStyle's `acceptableStatusCodes`, `ResponseValidation`,
/// ``ResponsePlan/response(acceptableStatusCodes:)``). The front ends start from ``successCodes``.
public struct StatusAcceptance: Sendable {
    private enum Rule: Sendable {
        case codes(IndexSet)
        case custom(@Sendable (HTTPResponse) -> Bool)
    }

    private let rule: Rule

    /// Statuses `200..<300`, the default.
    public static let successCodes = StatusAcceptance.codes(IndexSet(integersIn: 200..<300))
    /// Statuses `200..<400`.
    public static let successAndRedirectCodes = StatusAcceptance.codes(IndexSet(integersIn: 200..<400))
    /// Every status (no check).
    public static let anyStatus = StatusAcceptance(rule: .custom { _ in true })

    /// Exactly the statuses in `codes`.
    public static func codes(_ codes: IndexSet) -> StatusAcceptance { StatusAcceptance(rule: .codes(codes)) }

    /// Exactly the statuses in `codes`.
    public static func codes(_ codes: some Sequence<Int>) -> StatusAcceptance {
        StatusAcceptance(rule: .codes(IndexSet(codes)))
    }

    /// Whatever `isAcceptable` accepts (it sees the whole response).
    public static func custom(_ isAcceptable: @escaping @Sendable (HTTPResponse) -> Bool) -> StatusAcceptance {
        StatusAcceptance(rule: .custom(isAcceptable))
    }

    private init(rule: Rule) {
        self.rule = rule
    }

    /// Whether `response` passes.
    public func accepts(_ response: HTTPResponse) -> Bool {
        switch rule {
        case .codes(let codes): codes.contains(response.statusCode)
        case .custom(let isAcceptable): isAcceptable(response)
        }
    }

    /// Whether a response with `statusCode` passes, decided without running caller code: the
    /// codes of ``codes(_:)`` (and the presets), and `200..<300` for ``custom(_:)``, whose
    /// closure runs later, where caller code may (a streamed response is decided on the
    /// transport's thread at its head).
    package func acceptsOnTransportThread(_ statusCode: Int) -> Bool {
        switch rule {
        case .codes(let codes): codes.contains(statusCode)
        case .custom: (200..<300).contains(statusCode)
        }
    }

    /// Throws ``error(for:decodedBody:)`` unless `response` passes.
    /// - Throws: ``NetworkError/Kind/unacceptableStatus(_:)``.
    public func check(_ response: HTTPResponse) throws(NetworkError) {
        guard accepts(response) else { throw StatusAcceptance.error(for: response) }
    }

    /// The error for a response whose status did not pass: ``NetworkError/Kind/unacceptableStatus(_:)``
    /// with the response attached. With a `decodedBody` (an error-body type the body decoded
    /// into), that body is the ``NetworkError/underlyingError`` and its description ends the
    /// message; otherwise the message names the URL and quotes the start of a textual body.
    ///
    /// - Parameter decodedBody: the body as a typed error. Default `nil`.
    public static func error(for response: HTTPResponse, decodedBody: (any Error)? = nil) -> NetworkError {
        let status = response.statusCode
        if let decodedBody {
            return NetworkError(.unacceptableStatus(status), "the server answered \(status): \(describe(decodedBody))",
                                response: response, underlyingError: decodedBody)
        }
        var message = "the server answered \(status) for \(response.url.absoluteString)"
        if let excerpt = excerpt(of: response.body) { message += ": \(excerpt)" }
        return NetworkError(.unacceptableStatus(status), message, response: response)
    }

    private static func describe(_ error: any Error) -> String {
        if let localized = error as? any LocalizedError, let text = localized.errorDescription { return text }
        return String(describing: error)
    }

    /// The first 200 characters of a UTF-8 body on one line, or `nil` for an empty or binary body.
    static func excerpt(of body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        // The cut may split a character: back off up to three bytes (the longest UTF-8 tail).
        let limit = min(body.count, 400)
        let cuts = limit == body.count ? [limit] : Array((limit - 3...limit).reversed())
        guard let text = cuts.lazy.compactMap({ String(data: body.prefix($0), encoding: .utf8) }).first else { return nil }
        let line = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        guard !line.isEmpty else { return nil }
        return line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
