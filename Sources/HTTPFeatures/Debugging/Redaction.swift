import Foundation
import HTTPCore

/// Which secrets a rendered request hides: header values (`Authorization`, `Cookie`, any
/// header named like a credential, …) and parameter values whose names look like credentials
/// (`password`, `token`, …) — in the URL query, in form and JSON bodies, and in multipart
/// fields. Hidden values read ``replacement``.
///
/// A body is redacted by what it is, not by what its `Content-Type` says: a JSON object or
/// array is redacted as JSON, a form-encoded body as a form; any other body cannot be
/// checked for secrets and is shown as `<N bytes>` (except under ``none``).
///
/// Names compare without case, `_`, `-` and `.`, so `access_token`, `accessToken` and
/// `Access-Token` are one name. A parameter is hidden when its name (or any bracketed part,
/// as in `user[password]`) is in ``parameterNames`` or ends with one of ``parameterSuffixes``
/// (`newPassword`, `idToken`).
public struct Redaction: Sendable, Hashable {
    /// Header names whose values are hidden, compared without case. Default: see ``default``.
    public var headerNames: Set<String>
    /// Lower-case fragments that hide any header whose name contains one (`auth` hides
    /// `X-Auth-Token`). Default: see ``default``.
    public var headerNameFragments: [String]
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
    ///   - headerNameFragments: name fragments that hide a header containing one. Default none.
    ///   - replacement: the text shown instead. Default `"***"`.
    public init(headerNames: Set<String>, parameterNames: Set<String>, parameterSuffixes: [String] = [],
                headerNameFragments: [String] = [], replacement: String = "***") {
        self.headerNames = Set(headerNames.map { $0.lowercased() })
        self.headerNameFragments = headerNameFragments.map { $0.lowercased() }.filter { !$0.isEmpty }
        self.parameterNames = Set(parameterNames.map(Redaction.normalize))
        self.parameterSuffixes = parameterSuffixes.map(Redaction.normalize)
        self.replacement = replacement
    }

    /// Hides `Cookie`, `Set-Cookie` and every header whose name contains `auth`, `token`, `key`
    /// or `session` (``HTTPHeaders/isCredential(_:)``: `Authorization`, `X-API-Key`, `X-Auth-Token`,
    /// `token`, `X-Session-Id`, …); the parameters `password`, `passwd`,
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
        parameterSuffixes: ["password", "passwd", "secret", "token", "apikey"],
        headerNameFragments: HTTPHeaders.credentialNameFragments)

    /// Hides nothing — for local debugging only; never log with it.
    public static let none = Redaction(headerNames: [], parameterNames: [])

    /// Whether the header with this name is hidden.
    public func redactsHeader(named name: String) -> Bool {
        let name = name.lowercased()
        return headerNames.contains(name) || headerNameFragments.contains { name.contains($0) }
    }

    /// Whether a key inside a body or text (a server echoing headers back) names a hidden
    /// header. Fragments count only in names shaped like header names (`X-Auth-Token`), so
    /// JSON keys such as `author` or `keyword` stay readable; parameter-shaped names are
    /// ``redactsParameter(named:)``'s.
    func redactsEchoedHeader(named name: String) -> Bool {
        let name = name.lowercased()
        return headerNames.contains(name) || (name.contains("-") && headerNameFragments.contains { name.contains($0) })
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

    /// Whether this redaction hides nothing (``none``, or one made empty): the only one under
    /// which the `curl` rendering shows a proxy's or the origin's password.
    var hidesNothing: Bool {
        headerNames.isEmpty && parameterNames.isEmpty && parameterSuffixes.isEmpty && headerNameFragments.isEmpty
    }

    /// A request body as printable text with its secrets hidden, judged by what the bytes are
    /// rather than by a `Content-Type` that may be wrong: a JSON object or array is redacted as
    /// JSON, a form-encoded body as a form. `nil` for anything else (plain text, XML, binary,
    /// JSON that does not parse), which cannot be checked for secrets — except when the
    /// redaction hides nothing, where any printable text is returned as it is.
    func redactedBodyText(_ body: Data) -> String? {
        if hidesNothing { return CurlQuoting.printableText(body) }
        if Redaction.startsLikeJSONContainer(body) {
            guard let root = try? JSONSerialization.jsonObject(with: body), root is [String: Any] || root is [Any] else {
                return nil
            }
            return CurlQuoting.printableText(redactingJSON(root, original: body))
        }
        guard Redaction.isFormEncoded(body) else { return nil }
        return redactingURLEncoded(String(decoding: body, as: UTF8.self))
    }

    /// Whether the first byte after white space opens a JSON object or array.
    static func startsLikeJSONContainer(_ body: Data) -> Bool {
        let first = body.first { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
    }

    /// Whether the bytes are a non-empty `application/x-www-form-urlencoded` string:
    /// unreserved characters, sub-delimiters other than `;` (which some servers also split
    /// on, so a value could hide a second pair), `:`, `@`, `/`, `?`, and well-formed `%XX`.
    static func isFormEncoded(_ body: Data) -> Bool {
        guard !body.isEmpty else { return false }
        var index = body.startIndex
        while index < body.endIndex {
            let byte = body[index]
            if byte == UInt8(ascii: "%") {
                let next = body.index(after: index)
                guard body.distance(from: next, to: body.endIndex) >= 2,
                      isHexDigit(body[next]), isHexDigit(body[body.index(after: next)]) else { return false }
                index = body.index(index, offsetBy: 3)
                continue
            }
            guard ParameterEncoding.leavesUnencoded(byte) || formPunctuation.contains(byte) else { return false }
            index = body.index(after: index)
        }
        return true
    }

    private static let formPunctuation = Set("+=&!$'()*,:@/?".utf8)

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }

    /// A JSON body with the values of hidden keys (at any depth) replaced by ``replacement``;
    /// the original bytes when nothing is hidden or the body is not JSON.
    public func redactingJSON(_ body: Data) -> Data {
        guard let root = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else { return body }
        return redactingJSON(root, original: body)
    }

    /// The parsed `root` of `body` with hidden values replaced, serialised; `body` itself when
    /// nothing was hidden.
    private func redactingJSON(_ root: Any, original body: Data) -> Data {
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
