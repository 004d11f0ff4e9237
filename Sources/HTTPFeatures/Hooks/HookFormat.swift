import Foundation
import HTTPCore

/// The few number formats the shipped hooks print, written out here so the output is the same
/// on every platform and locale (`ByteCountFormatter` differs between Foundation builds).
enum HookFormat {
    /// `512 B`, `1.5 kB`, `12.3 MB`, `1.0 GB` — decimal units, like file managers and curl's `-w`.
    static func bytes(_ count: Int64) -> String {
        guard count >= 1000 else { return "\(max(0, count)) B" }
        var value = Double(count) / 1000
        for unit in ["kB", "MB", "GB", "TB"] {
            if value < 999.95 || unit == "TB" { return "\(oneDecimal(value)) \(unit)" }
            value /= 1000
        }
        return "\(count) B"
    }

    /// `0 ms`, `123 ms`, `1.23 s`, `75.0 s`.
    static func duration(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        if seconds < 1 { return "\(Int((seconds * 1000).rounded())) ms" }
        if seconds < 10 { return String(format: "%.2f s", seconds) }
        return "\(oneDecimal(seconds)) s"
    }

    /// `0:07`, `12:34`, `1:02:03` — for time left.
    static func clock(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 360_000 else { return "--:--" }
        let total = Int(seconds.rounded(.up))
        let (hours, minutes, secs) = (total / 3600, total / 60 % 60, total % 60)
        return hours > 0 ? String(format: "%d:%02d:%02d", hours, minutes, secs) : String(format: "%d:%02d", minutes, secs)
    }

    /// `GET 127.0.0.1:8080/path` — method, host and path, without the query (which may be long
    /// or secret): how a request is named on one terminal line.
    static func label(_ request: HTTPRequest) -> String {
        let host = request.url.host ?? ""
        let port = request.url.port.map { ":\($0)" } ?? ""
        let path = request.url.path.isEmpty ? "/" : request.url.path
        return "\(request.method.rawValue) \(host)\(port)\(path)"
    }

    /// `text` shortened to `width` characters with `…` in the middle, so both the start (the
    /// method and host) and the end (the file name) of a long label stay visible.
    static func truncateMiddle(_ text: String, to width: Int) -> String {
        guard text.count > width else { return text }
        guard width > 1 else { return String(text.prefix(max(0, width))) }
        let head = (width - 1) / 2
        let tail = width - 1 - head
        return text.prefix(head) + "…" + text.suffix(tail)
    }

    private static func oneDecimal(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}
