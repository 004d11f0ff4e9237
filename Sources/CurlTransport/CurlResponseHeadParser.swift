#if canImport(Glibc)
import HTTPCore
import Glibc
#endif

/// Builds the final response head from the header lines libcurl hands over one at a time.
///
/// libcurl calls the header callback for every response of a transfer — `100 Continue`,
/// each redirect, then the final one — so a status line starts a new head and only the last
/// head survives. Pure and allocation-light so it can be fuzzed on its own.
///
/// The engine does not run it on the loop thread: ``CurlResponseHeadRecorder`` keeps the
/// lines there, and they are parsed here on the callback thread.
struct CurlResponseHeadParser {
    private(set) var statusCode = 0
    private(set) var httpVersion: HTTPVersion = .unknown
    private(set) var headers = HTTPHeaders()
    /// Whether the blank line ending the current head has been seen.
    private(set) var isHeadComplete = false
    /// How many heads (status lines) have been seen.
    private(set) var headCount = 0
    /// Whether the last field line was kept, so a folded line after it continues its value
    /// (after a dropped one it is dropped too).
    private var foldContinuesField = false

    /// Consumes one header line, with or without its CRLF. Malformed lines are ignored:
    /// libcurl has already rejected replies it cannot frame.
    ///
    /// A line whose first byte is CR or LF ends the head whatever follows on it, as in
    /// libcurl 7.88 (`\rjunk: 2`). A field with whitespace before its colon is dropped:
    /// libcurl does not read it (`Content-Length : 99` frames nothing), so callers must not
    /// either (RFC 9112 §5.1 forbids the whitespace).
    mutating func consume(_ line: UnsafeRawBufferPointer) {
        if let first = line.first, first == 0x0D || first == 0x0A {
            if statusCode != 0 { isHeadComplete = true }
            foldContinuesField = false
            return
        }
        let bytes = CurlResponseHeadParser.withoutLineEnd(line)
        guard !bytes.isEmpty else { return }
        if CurlResponseHeadParser.isStatusLine(bytes) {
            startHead(statusLine: bytes)
            return
        }
        // Trailer fields after a chunked body arrive after the blank line; they belong to
        // this response, so they are simply appended.
        if bytes[0] == UInt8(ascii: " ") || bytes[0] == UInt8(ascii: "\t") {
            // Obsolete line folding (RFC 9112 §5.2): continue the previous value. (A folded
            // Content-Length never gets here: the recorder refuses it.)
            guard foldContinuesField, var last = headers.fields.last else { return }
            last.value += " " + CurlResponseHeadParser.trimmedString(bytes, from: 0, to: bytes.count)
            var fields = headers.fields
            fields[fields.count - 1] = last
            headers = HTTPHeaders(fields)
            return
        }
        foldContinuesField = false
        guard let base = bytes.baseAddress, let found = memchr(base, Int32(UInt8(ascii: ":")), bytes.count) else { return }
        let colon = base.distance(to: UnsafeRawPointer(found))
        guard colon > 0, bytes[colon - 1] != 0x20, bytes[colon - 1] != 0x09 else { return }
        foldContinuesField = true
        // Trim on bytes and make each String once: this runs for every header of every response.
        headers.add(name: CurlResponseHeadParser.fieldName(bytes, to: colon),
                    value: CurlResponseHeadParser.trimmedString(bytes, from: colon + 1, to: bytes.count))
    }

    /// The name before the colon (which no blank precedes). A name most responses carry,
    /// spelled exactly as listed here, becomes that constant: no UTF-8 validation, no new
    /// String. Any other spelling (`content-type`, say) is kept as sent.
    private static func fieldName(_ bytes: UnsafeRawBufferPointer, to colon: Int) -> String {
        // No leading blanks either: a line starting with one is a folded value (above).
        guard let base = bytes.baseAddress, colon > 0 else { return "" }
        // Length and first byte pick at most one candidate, so one comparison decides.
        let common: (bytes: StaticString, name: String)? = switch (colon, bytes[0]) {
        case (4, UInt8(ascii: "D")): ("Date", "Date")
        case (4, UInt8(ascii: "E")): ("ETag", "ETag")
        case (4, UInt8(ascii: "V")): ("Vary", "Vary")
        case (6, UInt8(ascii: "S")): ("Server", "Server")
        case (7, UInt8(ascii: "E")): ("Expires", "Expires")
        case (8, UInt8(ascii: "L")): ("Location", "Location")
        case (10, UInt8(ascii: "C")): ("Connection", "Connection")
        case (10, UInt8(ascii: "K")): ("Keep-Alive", "Keep-Alive")
        case (10, UInt8(ascii: "S")): ("Set-Cookie", "Set-Cookie")
        case (12, UInt8(ascii: "C")): ("Content-Type", "Content-Type")
        case (13, UInt8(ascii: "A")): ("Accept-Ranges", "Accept-Ranges")
        case (13, UInt8(ascii: "C")): ("Cache-Control", "Cache-Control")
        case (13, UInt8(ascii: "L")): ("Last-Modified", "Last-Modified")
        case (14, UInt8(ascii: "C")): ("Content-Length", "Content-Length")
        case (16, UInt8(ascii: "C")): ("Content-Encoding", "Content-Encoding")
        case (17, UInt8(ascii: "T")): ("Transfer-Encoding", "Transfer-Encoding")
        default: nil
        }
        if let common, memcmp(base, common.bytes.utf8Start, colon) == 0 { return common.name }
        return fieldString(UnsafeRawBufferPointer(rebasing: bytes[0..<colon]))
    }

    /// The bytes in `start..<end` without surrounding spaces and tabs, as a String.
    private static func trimmedString(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> String {
        var lower = start, upper = end
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return fieldString(UnsafeRawBufferPointer(rebasing: bytes[lower..<upper]))
    }

    /// `bytes` as a String, each CR, LF and NUL replaced by a space (RFC 9110 §5.5 allows
    /// this in place of refusing the message).
    ///
    /// libcurl cuts lines only at LF and passes a bare CR on (`a\rSet-Cookie: x`), and a
    /// caller that writes the value into a log, a header of its own or another protocol may
    /// take that CR for a line break. Done here, on the callback thread, with the rest of the
    /// parse; the loop thread never looks inside a value.
    private static func fieldString(_ bytes: UnsafeRawBufferPointer) -> String {
        guard let base = bytes.baseAddress,
              memchr(base, 0x0D, bytes.count) != nil || memchr(base, 0x00, bytes.count) != nil
                || memchr(base, 0x0A, bytes.count) != nil
        else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.map { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 ? 0x20 : $0 }, as: UTF8.self)
    }

    private mutating func startHead(statusLine: UnsafeRawBufferPointer) {
        headCount += 1
        headers = HTTPHeaders()
        // Typical responses carry 5 to 15 fields; growing from empty would reallocate 4 times.
        headers.reserveCapacity(16)
        isHeadComplete = false
        foldContinuesField = false
        (statusCode, httpVersion) = CurlResponseHeadParser.readStatusLine(statusLine)
    }

    /// `line` without its trailing CR and LF bytes.
    static func withoutLineEnd(_ line: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        var end = line.count
        while end > 0, line[end - 1] == 0x0A || line[end - 1] == 0x0D { end -= 1 }
        return UnsafeRawBufferPointer(rebasing: line[0..<end])
    }

    /// Whether the line in `bytes` starts with `HTTP/` in any case, as libcurl recognises a
    /// status line (it reads `http/1.1 500` as `HTTP/1.0 200`).
    static func startsWithHTTPSlash(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 5 && bytes[0] | 0x20 == UInt8(ascii: "h") && bytes[1] | 0x20 == UInt8(ascii: "t")
            && bytes[2] | 0x20 == UInt8(ascii: "t") && bytes[3] | 0x20 == UInt8(ascii: "p") && bytes[4] == UInt8(ascii: "/")
    }

    /// Whether the line in `bytes` (with or without its ending) starts a new head: `HTTP/`,
    /// spelled exactly so (the recorder refuses any other spelling where a head begins).
    static func isStatusLine(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.count >= 5 && bytes[0] == UInt8(ascii: "H") && bytes[1] == UInt8(ascii: "T")
            && bytes[2] == UInt8(ascii: "T") && bytes[3] == UInt8(ascii: "P") && bytes[4] == UInt8(ascii: "/")
    }

    /// The code and version of "HTTP/<version> <code>[ <reason>]", read on bytes: this runs
    /// for every response. The first three bytes of the code token must all be digits (a
    /// shorter token counts); otherwise the code is 0.
    static func readStatusLine(_ statusLine: UnsafeRawBufferPointer) -> (code: Int, version: HTTPVersion) {
        var index = 0
        while index < statusLine.count, statusLine[index] != UInt8(ascii: " ") { index += 1 }
        let version = CurlResponseHeadParser.version(UnsafeRawBufferPointer(rebasing: statusLine[0..<index]))
        while index < statusLine.count, statusLine[index] == UInt8(ascii: " ") { index += 1 }
        var code = 0
        var digits = 0
        while index < statusLine.count, digits < 3, statusLine[index] != UInt8(ascii: " ") {
            let byte = statusLine[index]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                code = 0
                break
            }
            code = code * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
            index += 1
        }
        return (code, version)
    }

    /// The version of a status line's first word ("HTTP/1.1", "HTTP/2", ...), compared on
    /// bytes: the generic sequence comparisons cost about 1,000 instructions per response.
    private static func version(_ word: UnsafeRawBufferPointer) -> HTTPVersion {
        guard word.count >= 6, word[0] == UInt8(ascii: "H"), word[1] == UInt8(ascii: "T"), word[2] == UInt8(ascii: "T"),
              word[3] == UInt8(ascii: "P"), word[4] == UInt8(ascii: "/") else { return .unknown }
        let major = word[5]
        let minor: UInt8? = switch word.count {
        case 6: nil
        case 8 where word[6] == UInt8(ascii: "."): word[7]
        default: UInt8(ascii: "x")  // anything longer is no version we know
        }
        switch (major, minor) {
        case (UInt8(ascii: "1"), UInt8(ascii: "1")): return .http1_1
        case (UInt8(ascii: "1"), UInt8(ascii: "0")): return .http1_0
        case (UInt8(ascii: "2"), nil), (UInt8(ascii: "2"), UInt8(ascii: "0")): return .http2
        case (UInt8(ascii: "3"), nil), (UInt8(ascii: "3"), UInt8(ascii: "0")): return .http3
        default: return .unknown
        }
    }
}
