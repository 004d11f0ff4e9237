import Foundation

/// Which secrets a rendered request hides: header values (`Authorization`, `Cookie`, …) and
/// parameter values whose names look like credentials (`password`, `token`, …) — in the URL
/// query, in form and JSON bodies, and in multipart fields. Hidden values read ``replacement``.
///
/// Names compare without case, `_`, `-` and `.`, so `access_token`, `accessToken` and
/// `Access-Token` are one name. A parameter is hidden when its name (or any bracketed part,
/// as in `user[password]`) is in ``parameterNames`` or ends with one of ``parameterSuffixes``
/// (`newPassword`, `idToken`).
public struct Redaction: Sendable, Hashable {
    /// Header names whose values are hidden, compared without case. Default: see ``default``.
    public var headerNames: Set<String>
    /// Parameter names whose values are hidden, in normalised form (lower case, no `_ - .`).
    public var parameterNames: Set<String>
    /// Name endings that hide a parameter too, in normalised form.
    public var parameterSuffixes: [String]
    /// What a hidden value is replaced with. Default `"***"`.
    public var replacement: String

    /// Makes a redaction; names are normalised here, so any spelling works.
    ///
    /// - Parameters:
    ///   - headerNames: headers whose values are hidden.
    ///   - parameterNames: parameter names whose values are hidden.
    ///   - parameterSuffixes: name endings that hide a parameter. Default none.
    ///   - replacement: the text shown instead. Default `"***"`.
    public init(headerNames: Set<String>, parameterNames: Set<String>, parameterSuffixes: [String] = [],
                replacement: String = "***") {
        self.headerNames = Set(headerNames.map { $0.lowercased() })
        self.parameterNames = Set(parameterNames.map(Redaction.normalize))
        self.parameterSuffixes = parameterSuffixes.map(Redaction.normalize)
        self.replacement = replacement
    }

    /// Hides `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-API-Key`,
    /// `X-Auth-Token`, `X-Access-Token`, `X-CSRF-Token`; the parameters `password`, `passwd`,
    /// `pwd`, `pass`, `passcode`, `secret`, `token`, `access_token`, `refresh_token`,
    /// `id_token`, `auth_token`, `client_secret`, `api_key`, `apikey`, `api_secret`,
    /// `private_key`, `session_id`, `credential`, `credentials`, `otp`; and any parameter
    /// ending in `password`, `passwd`, `secret`, `token` or `apikey`.
    public static let `default` = Redaction(
        headerNames: ["authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "x-auth-token",
                      "x-access-token", "x-csrf-token"],
        parameterNames: ["password", "passwd", "pwd", "pass", "passcode", "secret", "token", "access_token",
                         "refresh_token", "id_token", "auth_token", "client_secret", "api_key", "apikey", "api_secret",
                         "private_key", "session_id", "credential", "credentials", "otp"],
        parameterSuffixes: ["password", "passwd", "secret", "token", "apikey"])

    /// Hides nothing — for local debugging only; never log with it.
    public static let none = Redaction(headerNames: [], parameterNames: [])

    /// Whether the header with this name is hidden.
    public func redactsHeader(named name: String) -> Bool {
        headerNames.contains(name.lowercased())
    }

    /// Whether the parameter with this name (`password`, `user[password]`) is hidden.
    public func redactsParameter(named name: String) -> Bool {
        let parts = name.split(whereSeparator: { $0 == "[" || $0 == "]" }).map { Redaction.normalize(String($0)) }
        return parts.contains { part in
            !part.isEmpty && (parameterNames.contains(part) || parameterSuffixes.contains { part.hasSuffix($0) })
        }
    }

    /// A header's value as shown: ``replacement`` when hidden, keeping what helps debugging
    /// and is not secret — an `Authorization` scheme (`Bearer ***`), cookie names
    /// (`session=***; theme=***`) and `Set-Cookie` attributes — else the value.
    public func redactedValue(ofHeader name: String, value: String) -> String {
        guard redactsHeader(named: name) else { return value }
        switch name.lowercased() {
        case "authorization", "proxy-authorization":
            guard let space = value.firstIndex(of: " "), !value[..<space].isEmpty else { return replacement }
            return "\(value[..<space]) \(replacement)"
        case "cookie":
            return value.split(separator: ";").map { redactingCookiePair($0) }.joined(separator: ";")
        case "set-cookie":
            // Only the first pair is the cookie; the rest are attributes (Path, HttpOnly, …).
            let pieces = value.split(separator: ";", omittingEmptySubsequences: false)
            guard let first = pieces.first else { return replacement }
            return ([redactingCookiePair(first)] + pieces.dropFirst().map(String.init)).joined(separator: ";")
        default:
            return replacement
        }
    }

    private func redactingCookiePair(_ pair: Substring) -> String {
        guard let equals = pair.firstIndex(of: "=") else { return replacement }
        return pair[...equals] + replacement
    }

    /// Headers with hidden values replaced (see ``redactedValue(ofHeader:value:)``).
    public func redacting(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(headers.fields.map { HTTPHeaders.Field(name: $0.name, value: redactedValue(ofHeader: $0.name, value: $0.value)) })
    }

    /// The URL as text with a user-info password and hidden query values replaced; the rest,
    /// including the order of query items, is kept as it was.
    public func redacting(_ url: URL) -> String {
        // Plain text surgery rather than URLComponents setters, which may trap on a
        // replacement that is not valid percent-encoding.
        var text = url.absoluteString
        var fragment = ""
        if let hash = text.firstIndex(of: "#") {
            fragment = String(text[hash...])
            text = String(text[..<hash])
        }
        var query: String?
        if let mark = text.firstIndex(of: "?") {
            query = String(text[text.index(after: mark)...])
            text = String(text[..<mark])
        }
        if let password = URLComponents(url: url, resolvingAgainstBaseURL: true)?.percentEncodedPassword,
           let range = text.range(of: ":\(password)@") {
            text.replaceSubrange(range, with: ":\(replacement)@")
        }
        if let query { text += "?" + redactingURLEncoded(query) }
        return text + fragment
    }

    /// An `application/x-www-form-urlencoded` string (or URL query) with hidden values
    /// replaced. The replacement is written as it is (`***` is legal in a query), so it
    /// stays readable in logs.
    public func redactingURLEncoded(_ text: String) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let rawName = String(parts[0])
            let name = (rawName.replacingOccurrences(of: "+", with: " ")).removingPercentEncoding ?? rawName
            guard parts.count == 2, redactsParameter(named: name) else { return String(pair) }
            return rawName + "=" + replacement
        }.joined(separator: "&")
    }

    /// A JSON body with the values of hidden keys (at any depth) replaced by ``replacement``;
    /// the original bytes when nothing is hidden or the body is not JSON.
    public func redactingJSON(_ body: Data) -> Data {
        guard let root = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return body }
        var changed = false
        let redacted = redactJSONValue(root, changed: &changed)
        guard changed, let data = try? JSONSerialization.data(withJSONObject: redacted,
                                                             options: [.sortedKeys, .withoutEscapingSlashes, .fragmentsAllowed])
        else { return body }
        return data
    }

    private func redactJSONValue(_ value: Any, changed: inout Bool) -> Any {
        if let object = value as? [String: Any] {
            var result: [String: Any] = [:]
            for (key, item) in object {
                if redactsParameter(named: key) {
                    result[key] = replacement
                    changed = true
                } else {
                    result[key] = redactJSONValue(item, changed: &changed)
                }
            }
            return result
        }
        if let array = value as? [Any] {
            return array.map { redactJSONValue($0, changed: &changed) }
        }
        return value
    }

    private static func normalize(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != "." })
    }
}
