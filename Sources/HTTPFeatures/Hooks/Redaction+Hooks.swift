import Foundation
import HTTPCore

/// What the shipped hooks need beyond rendering a request: secrets in free text (error
/// messages, text bodies, URLs echoed inside JSON) and in response bodies, with the same
/// policy as the `curl` renderer, so one ``Redaction`` decides what every printout hides.
extension Redaction {
    /// `text` with the values of hidden `name=value` pairs (in any URL, query or form inside
    /// it) and the password of any `scheme://user:password@` replaced by ``replacement``.
    func redactingText(_ text: String) -> String {
        guard text.contains("=") || text.contains("@"), let pairs = Redaction.pairPattern,
              let userInfo = Redaction.userInfoPattern else { return text }
        var result = text
        // From the end, so the ranges still to replace keep their offsets.
        for match in pairs.matches(in: text, range: NSRange(text.startIndex..., in: text)).reversed() {
            guard let nameRange = Range(match.range(at: 1), in: text), let valueRange = Range(match.range(at: 2), in: result),
                  !result[valueRange].isEmpty else { continue }
            let name = String(text[nameRange])
            if redactsParameter(named: name.removingPercentEncoding ?? name) || redactsEchoedHeader(named: name) {
                result.replaceSubrange(valueRange, with: replacement)
            }
        }
        return userInfo.stringByReplacingMatches(in: result, range: NSRange(result.startIndex..., in: result),
                                                 withTemplate: "://$1:\(NSRegularExpression.escapedTemplate(for: replacement))@")
    }

    /// A parsed JSON value with the values of hidden keys replaced — parameter names and header
    /// names alike, since servers echo headers back — and every string redacted as text.
    func redactingJSONValue(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            var copy: [String: Any] = [:]
            for (key, member) in object {
                copy[key] = redactsParameter(named: key) || redactsEchoedHeader(named: key) ? replacement : redactingJSONValue(member)
            }
            return copy
        case let array as [Any]:
            return array.map { redactingJSONValue($0) }
        case let string as String:
            return redactingText(string)
        default:
            return value
        }
    }

    // Constant patterns: they compile or the redaction tests fail; `try?` keeps a typo from
    // becoming a crash in production.
    /// `name=value`, where the name starts after a delimiter and the value runs to the next.
    private static let pairPattern = try? NSRegularExpression(pattern: #"(?:^|(?<=[?&;\s"'(,]))([^=&?;\s"'(,]+)=([^&;#\s"',)]*)"#)
    /// `scheme://user:password@`
    private static let userInfoPattern = try? NSRegularExpression(pattern: #"://([^:/@\s]+):([^@/\s]+)@"#)
}
