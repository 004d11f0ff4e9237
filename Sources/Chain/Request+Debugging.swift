import Foundation

extension Request: CustomDebugStringConvertible {
    /// The request as a runnable `curl` command, with `Authorization`, `Cookie` and
    /// password-like parameters shown as `***` (see ``Redaction/default``). The cookie jar's
    /// cookies for the URL are in it as they are now; interceptors have not run yet, so
    /// headers they add are not shown. A request that cannot be built shows
    /// why, as a shell comment (`# invalid request: …`).
    public var curlDescription: String {
        curlCommand()
    }

    /// The request as a `curl` command line (see ``HTTPRequest/curlCommand(redacting:maximumBodyBytes:multiline:)``).
    ///
    /// - Parameters:
    ///   - redaction: what to hide. Default ``Redaction/default``.
    ///   - multiline: one argument per line with ` \` continuations. Default `true`.
    public func curlCommand(redacting redaction: Redaction = .default, multiline: Bool = true) -> String {
        do throws(NetworkError) {
            var request = try httpRequest()
            if let jar = effectiveConfiguration.cookieJar { request = request.addingCookies(from: jar) }
            return request.curlCommand(redacting: redaction, multiline: multiline)
        } catch {
            return "# invalid request: \(error.message)"
        }
    }

    /// The core request this request sends now, built against ``effectiveConfiguration``
    /// (before interceptors adapt it): for inspection, logging, or sending with
    /// ``HTTPClient`` directly.
    /// - Throws: ``NetworkError/Kind/invalidURL`` or ``NetworkError/Kind/invalidParameters``.
    public func httpRequest() throws(NetworkError) -> HTTPRequest {
        try makeHTTPRequest(configuration: effectiveConfiguration)
    }

    /// Same as ``curlDescription``.
    public var debugDescription: String { curlDescription }
}
