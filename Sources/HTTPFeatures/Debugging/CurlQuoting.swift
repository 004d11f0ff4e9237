import Foundation
import HTTPCore

/// Quoting for POSIX shells and curl's `-F` syntax.
enum CurlQuoting {
    /// `'text'`, with each `'` written as `'\''`; safe for any text in any POSIX shell.
    static func quote(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// A `-F` attribute value, double-quoted when it contains `;`, `,` or `"`.
    static func formAttribute(_ text: String) -> String {
        guard text.contains(where: { $0 == ";" || $0 == "," || $0 == "\"" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }

    /// `12` rather than `12.0`.
    static func number(_ value: Double) -> String {
        if let int = Int(exactly: value) { return String(int) }
        return String(value)
    }

    /// The data as UTF-8 text, or `nil` when it is not UTF-8 or holds control characters other
    /// than tab, CR and LF (a shell argument cannot carry NUL).
    static func printableText(_ data: Data) -> String? {
        guard let text = String(validating: data, as: UTF8.self) else { return nil }
        let isPrintable = text.unicodeScalars.allSatisfy { scalar in
            scalar == "\t" || scalar == "\n" || scalar == "\r" || (scalar.value >= 0x20 && scalar.value != 0x7F)
        }
        return isPrintable ? text : nil
    }
}
