import HTTPCore
/// Reports every failed request in one human line — the counterpart of the toast and alert
/// helpers of iOS apps (`[SVProgressHUD showErrorWithStatus:]`).
///
/// The message is the error's ``NetworkError/description`` on one line, with password-like
/// parameters of any URL in it redacted (``Redaction/default``). Cancelled requests are not reported by default (the
/// user or the program chose to stop them); a filter can skip more, such as a 401 that an
/// interceptor turns into a login screen.
///
///     Hooks.shared.add(ErrorReporterHook { message, _, _ in showToast(message) })
public struct ErrorReporterHook: HTTPHook {
    /// Whether failures of kind ``NetworkError/Kind/cancelled`` are skipped. Default `true`.
    public var ignoresCancellation: Bool
    /// Reports only the failures it returns `true` for. Default `nil`: every failure.
    public var filter: (@Sendable (NetworkError, HookContext) -> Bool)?
    private let report: @Sendable (String, NetworkError, HookContext) -> Void

    /// Makes a reporter that calls `report` with the one-line message, the error and the request.
    ///
    /// - Parameters:
    ///   - ignoresCancellation: skip cancelled requests. Default `true`.
    ///   - filter: report only failures it returns `true` for. Default `nil` (all).
    ///   - report: called on the request's callback queue for every reported failure.
    public init(ignoresCancellation: Bool = true, filter: (@Sendable (NetworkError, HookContext) -> Bool)? = nil,
                report: @escaping @Sendable (_ message: String, _ error: NetworkError, _ context: HookContext) -> Void) {
        self.ignoresCancellation = ignoresCancellation
        self.filter = filter
        self.report = report
    }

    /// Makes a reporter that writes `error: GET <url>: <message>` lines to `output`.
    ///
    /// - Parameters:
    ///   - ignoresCancellation: skip cancelled requests. Default `true`.
    ///   - filter: report only failures it returns `true` for. Default `nil` (all).
    ///   - output: where lines go. Default standard error.
    public init(ignoresCancellation: Bool = true, filter: (@Sendable (NetworkError, HookContext) -> Bool)? = nil,
                output: HookOutput = .standardError) {
        self.init(ignoresCancellation: ignoresCancellation, filter: filter) { message, _, context in
            output.write("error: \(context.request.method.rawValue) \(Redaction.default.redacting(context.request.url)): \(message)\n")
        }
    }

    /// Reports the failure unless it is skipped.
    public func didFail(_ context: HookContext, error: NetworkError) {
        if ignoresCancellation && error.kind == .cancelled { return }
        if let filter, !filter(error, context) { return }
        report(ErrorReporterHook.message(for: error), error, context)
    }

    /// The error's description on one line, with what `redaction` (default ``Redaction/default``)
    /// hides in any URL or parameters it quotes replaced.
    public static func message(for error: NetworkError, redaction: Redaction = .default) -> String {
        redaction.redactingText(error.description.split(whereSeparator: \.isNewline).joined(separator: " "))
    }
}
