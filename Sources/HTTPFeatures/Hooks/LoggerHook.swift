import Foundation
import HTTPCore

/// Logs requests and responses — the counterpart of Alamofire's `EventMonitor` loggers and
/// OkHttp's `HttpLoggingInterceptor`.
///
/// What each ``Level`` writes (every line names the call `#id`, so concurrent calls can be told apart):
///
/// | event | `.error` | `.info` | `.debug` |
/// | --- | --- | --- | --- |
/// | will send | – | `→ #7 GET <url>` | the same, then the request as a runnable `curl` command |
/// | finished | – | `← #7 200 GET <url>  85 ms  1.2 kB  network` | the same, then the response headers and body |
/// | failed | `✗ #7 GET <url>: <error>` | the same | the same, then the response headers and body, if one arrived |
///
/// Secrets never reach the output: what ``redaction`` hides (by default `Authorization`,
/// `Cookie`, `Set-Cookie` and other credential headers, password- and token-like parameters)
/// is replaced by `***` in the `curl` command, in URLs, in headers — the response's too — and
/// in bodies: form and text bodies, JSON keys named like a hidden parameter or header, and
/// URLs and forms quoted inside JSON strings. Bodies are judged by what they are, not by their
/// `Content-Type`: a request body that is neither a JSON object or array nor a form is shown
/// as `<N bytes>` (see ``HTTPRequest/curlCommand(redacting:maximumBodyBytes:multiline:)``),
/// and a response body that parses as a JSON object or array is redacted as JSON whatever
/// its type says. JSON bodies are therefore always re-serialised (keys sorted);
/// `prettyPrintsJSON` indents them. Bodies are cut at `maximumBodyLength` characters; binary
/// bodies are summarised, never dumped.
///
/// Each event is one write to the output, so blocks of concurrent calls do not interleave.
public struct LoggerHook: HTTPHook {
    /// How much is logged; each level includes the ones before it.
    public enum Level: Int, Sendable, Hashable, Comparable, CaseIterable {
        /// Nothing.
        case off
        /// Failures only.
        case error
        /// One line per request and per response or failure.
        case info
        /// Also the request as a `curl` command and the response headers and body.
        case debug

        /// Orders levels from ``off`` to ``debug``, so `level >= .info` reads as "at least info".
        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How much is logged. Default ``Level/info``.
    public var level: Level
    /// Whether JSON bodies are indented at ``Level/debug``. Default `false` (compact).
    public var prettyPrintsJSON: Bool
    /// The most characters of a body printed at ``Level/debug``; the rest is counted, not shown. Default 4096.
    public var maximumBodyLength: Int
    /// What is hidden everywhere the logger prints. Default ``Redaction/default``.
    public var redaction: Redaction
    private let output: HookOutput

    /// JSON bodies larger than this are not parsed (so not redacted), only summarised.
    private static let maximumParsedJSON = 1 << 20

    /// Makes a logger; every argument has the default stated on its property, and the output
    /// defaults to standard error.
    public init(level: Level = .info, prettyPrintsJSON: Bool = false, maximumBodyLength: Int = 4096,
                redaction: Redaction = .default, output: HookOutput = .standardError) {
        self.level = level
        self.prettyPrintsJSON = prettyPrintsJSON
        self.maximumBodyLength = max(0, maximumBodyLength)
        self.redaction = redaction
        self.output = output
    }

    /// `→` line; at ``Level/debug`` also the `curl` command.
    public func willSend(_ context: HookContext) {
        guard level >= .info else { return }
        var text = "→ #\(context.id) \(name(of: context.request))\n"
        if level >= .debug { text += curlCommand(for: context.request) + "\n" }
        output.write(text)
    }

    /// `←` line with status, time, size and source; at ``Level/debug`` also headers and body.
    public func didFinish(_ context: HookContext, response: HTTPResponse) {
        guard level >= .info else { return }
        var text = "← #\(context.id) \(response.statusCode) \(name(of: context.request))  "
            + "\(HookFormat.duration(response.timings.total))  \(size(of: response))  \(response.source.rawValue)\n"
        if level >= .debug { text += details(of: response) }
        output.write(text)
    }

    /// `✗` line with the error; at ``Level/debug`` also the headers and body of a response that arrived.
    public func didFail(_ context: HookContext, error: NetworkError) {
        guard level >= .error else { return }
        var text = "✗ #\(context.id) \(name(of: context.request)): \(ErrorReporterHook.message(for: error, redaction: redaction))\n"
        if level >= .debug, let response = error.response { text += details(of: response) }
        output.write(text)
    }

    /// The request as a `curl` command with secrets redacted: the one place that knows who
    /// renders it (Debugging's ``HTTPRequest/curlCommand(redacting:maximumBodyBytes:multiline:)``).
    func curlCommand(for request: HTTPRequest) -> String {
        request.curlCommand(redacting: redaction)
    }

    private func name(of request: HTTPRequest) -> String {
        "\(request.method.rawValue) \(redaction.redacting(request.url))"
    }

    private func size(of response: HTTPResponse) -> String {
        if let file = response.fileURL { return "saved to \(file.path)" }
        return HookFormat.bytes(Int64(response.body.count))
    }

    /// The response headers (redacted) and body, indented under the event's line.
    private func details(of response: HTTPResponse) -> String {
        var text = ""
        // Beyond credential headers, any header may quote a URL with a token (`Location`).
        for field in redaction.redacting(response.headers) {
            text += "    \(field.name): \(redaction.redactingText(field.value))\n"
        }
        if let body = body(of: response) {
            text += body.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n") + "\n"
        }
        return text
    }

    /// The printable, redacted, size-capped body, or `nil` when there is none.
    private func body(of response: HTTPResponse) -> String? {
        let body = response.body
        guard !body.isEmpty else { return nil }
        let mimeType = response.mimeType
        let text: String
        // A JSON object or array is redacted as JSON even when its type claims otherwise: as
        // text, its keys (`"password": "…"`) would not be recognised.
        let saysJSON = LoggerHook.isJSON(mimeType)
        if saysJSON || (body.count <= LoggerHook.maximumParsedJSON && Redaction.startsLikeJSONContainer(body)) {
            guard body.count <= LoggerHook.maximumParsedJSON else { return "(\(HookFormat.bytes(Int64(body.count))) of JSON, not shown)" }
            guard let json = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]),
                  saysJSON || json is [String: Any] || json is [Any] else {
                guard saysJSON || LoggerHook.isText(mimeType) else {
                    return "(\(HookFormat.bytes(Int64(body.count))) of \(mimeType ?? "binary data"))"
                }
                return capped(redaction.redactingText(String(decoding: body, as: UTF8.self)))
            }
            var options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes]
            if prettyPrintsJSON { options.insert(.prettyPrinted) }
            guard let data = try? JSONSerialization.data(withJSONObject: redaction.redactingJSONValue(json), options: options) else {
                return "(\(HookFormat.bytes(Int64(body.count))) of JSON)"
            }
            text = String(decoding: data, as: UTF8.self)
        } else if LoggerHook.isText(mimeType), let decoded = String(data: body, encoding: .utf8) {
            text = redaction.redactingText(decoded)
        } else {
            return "(\(HookFormat.bytes(Int64(body.count))) of \(mimeType ?? "binary data"))"
        }
        return capped(text)
    }

    private func capped(_ text: String) -> String {
        guard text.count > maximumBodyLength else { return text }
        let rest = text.utf8.count - text.prefix(maximumBodyLength).utf8.count
        return text.prefix(maximumBodyLength) + "… (\(HookFormat.bytes(Int64(rest))) more)"
    }

    private static func isJSON(_ mimeType: String?) -> Bool {
        guard let mimeType else { return false }
        return mimeType == "application/json" || mimeType.hasSuffix("+json")
    }

    private static func isText(_ mimeType: String?) -> Bool {
        guard let mimeType else { return true }
        return mimeType.hasPrefix("text/") || mimeType.hasSuffix("+xml") || mimeType.hasSuffix("/xml")
            || ["application/x-www-form-urlencoded", "application/javascript", "application/graphql"].contains(mimeType)
    }
}
