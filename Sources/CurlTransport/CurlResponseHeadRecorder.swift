#if canImport(Glibc)
import HTTPCore
import Glibc
#endif

/// The loop thread's half of reading a response head: it keeps the lines of the current head
/// as libcurl hands them over, reads only the status line, which the loop itself needs (a
/// download writes only a `2xx` body to its file; a resumed one appends only on `206`), and
/// refuses the lines that would make the response mean something else than libcurl framed:
/// a status line where libcurl began no response or that libcurl reads otherwise, and
/// framing fields that contradict each other.
///
/// Turning the lines into ``HTTPHeaders`` happens later, on the callback thread
/// (``headers(in:)``, through ``CurlResponseHeadParser``). With many transfers in flight the
/// loop thread, which runs libcurl for all of them, is what limits throughput; the parse cost
/// it ~5,000 instructions per typical response, and the strings and the field array it
/// allocated were freed by the callback thread, which contends for the loop's malloc arena.
/// Now the loop copies each line into a buffer the transfer made on the caller's thread, and
/// allocates nothing for a typical head.
struct CurlResponseHeadRecorder {
    /// Room for a typical head: 200 to 400 bytes.
    static let typicalCapacity = 512

    /// A line that makes the response unreadable; the transfer fails with
    /// ``NetworkError/Kind/invalidResponse``.
    enum Violation: Equatable {
        /// A line starting with `HTTP/` (in any case, as libcurl matches it) where libcurl
        /// began no new response: inside a head, after a bare LF in a value, or in the
        /// trailers. Taken as a status line it would replace the real status (a `500`
        /// delivered as a `200`).
        case statusLineInsideResponse
        /// A status line not spelled `HTTP/` (`http/1.1 500`): libcurl takes one it cannot read
        /// as `HTTP/1.0 200`, so the response would be framed as a status the server never sent.
        case statusLineMisspelled
        /// `Content-Length` fields (or the values of one) that disagree, one that is no
        /// number, or one continued on a folded line (libcurl frames by its first line alone):
        /// RFC 9112 §6.3 makes the framing unrecoverable.
        case conflictingContentLength
        /// `Transfer-Encoding` and `Content-Length` in one head: RFC 9112 §6.3 says this
        /// "ought to be handled as an error" (it is how responses are smuggled), and libcurl
        /// would frame by the one while the caller reads the other.
        case lengthWithTransferEncoding

        /// The sentence for the error.
        var reason: String {
            switch self {
            case .statusLineInsideResponse: "a line inside the response looks like a status line"
            case .statusLineMisspelled: "its status line does not start with \"HTTP/\""
            case .conflictingContentLength: "its Content-Length fields disagree, are folded or are not numbers"
            case .lengthWithTransferEncoding: "it has both Transfer-Encoding and Content-Length"
            }
        }
    }

    /// The status code of the current head; 0 before its status line.
    private(set) var statusCode = 0
    /// The version from the current head's status line.
    private(set) var httpVersion: HTTPVersion = .unknown
    /// The lines of the current head, from its status line on, each ending in LF, then the
    /// trailers of a chunked body.
    private(set) var bytes: [UInt8] = []
    /// The line that was refused, if any: nothing is recorded after it.
    private(set) var violation: Violation?
    /// Whether the blank line ending the current head has been seen.
    private(set) var isHeadComplete = false
    /// The `Content-Length` the current head announced, `-1` before one.
    private var announcedLength: Int64 = -1
    /// Whether the current head has a `Transfer-Encoding` field.
    private var hasTransferEncoding = false
    /// Whether the last line was a `Content-Length` field, which a folded line would continue.
    private var lastLineIsContentLength = false
    /// What libcurl had sent when the current head ended, if its status was 3xx or more
    /// (after which libcurl may send another request: see ``record(_:requestsSent:)``).
    private var sentAtHeadEnd: RequestsSent?

    /// What libcurl has sent in this transfer so far.
    struct RequestsSent: Equatable {
        /// Redirects followed (`CURLINFO_REDIRECT_COUNT`).
        var redirects: Int
        /// Request bytes written, every request's (`CURLINFO_REQUEST_SIZE`): it also grows for
        /// the requests libcurl sends again without counting a redirect (after a `417`).
        var bytes: Int
    }

    /// A recorder with room for `capacity` bytes of head (default 0: the buffer grows as lines
    /// arrive).
    ///
    /// A transfer makes its recorder on the caller's thread with room for a typical head, so
    /// the loop thread does not allocate the buffer. The completion's block holds the last
    /// reference to it as a rule, so the callback thread frees it — in a chain of requests,
    /// the very thread that made it, since each request is sent from the last one's completion.
    init(capacity: Int = 0) {
        if capacity > 0 { bytes.reserveCapacity(capacity) }
    }

    /// Records one header line, with or without its line ending; `false` when the line is
    /// refused (see ``violation``), and the header callback then makes libcurl stop.
    ///
    /// A status line starts a new head, dropping the previous one, only where libcurl itself
    /// began a new response: at the first line, after the blank line ending a `1xx` head, or
    /// after a head of 3xx or more once libcurl sent another request (a redirect it follows,
    /// the retry after a `417`). Anywhere else — inside a head, after a bare LF inside a value
    /// (libcurl cuts lines at LF), in the trailers — a line starting with `HTTP/` in any case
    /// is refused: libcurl passes it on as a field, but its name (`HTTP/1.1 200 OK`) is no
    /// field name, and node refuses it too. Where a response does begin, a status line must
    /// be spelled `HTTP/` exactly: libcurl reads `http/1.1 500` as `HTTP/1.0 200`.
    ///
    /// - Parameter requestsSent: libcurl's counts for this transfer, asked only at the end of a
    ///   head of 3xx or more and at a status line after one, so a `2xx` response costs no call.
    mutating func record(_ line: UnsafeRawBufferPointer, requestsSent: () -> RequestsSent) -> Bool {
        guard violation == nil, let first = line.first else { return violation == nil }
        // "HTTP/" is at the start of the line with or without its ending: only a status line
        // needs the ending cut off. libcurl matches it in any case (`http/1.1 500` begins a
        // response to it), so this does too.
        if first | 0x20 == UInt8(ascii: "h"), CurlResponseHeadParser.startsWithHTTPSlash(line) {
            guard beginsResponse(requestsSent: requestsSent) else { return refuse(.statusLineInsideResponse) }
            guard CurlResponseHeadParser.isStatusLine(line) else { return refuse(.statusLineMisspelled) }
            bytes.removeAll(keepingCapacity: true)
            (statusCode, httpVersion) = CurlResponseHeadParser.readStatusLine(CurlResponseHeadParser.withoutLineEnd(line))
            isHeadComplete = false
            announcedLength = -1
            hasTransferEncoding = false
            lastLineIsContentLength = false
            sentAtHeadEnd = nil
        } else if first == 0x0D || first == 0x0A {
            // libcurl 7.88 ends a head at any line whose first byte is CR or LF, whatever
            // follows on that line (`\rjunk: 2`).
            if statusCode != 0, !isHeadComplete {
                isHeadComplete = true
                if statusCode >= 300 { sentAtHeadEnd = requestsSent() }
            }
        } else if !isHeadComplete {
            // Only the head frames the body (a trailer's Content-Length does not).
            guard recordFraming(line, first: first) else { return false }
        }
        // As typed bytes, the append is one capacity check and a `memcpy`.
        bytes.append(contentsOf: line.assumingMemoryBound(to: UInt8.self))
        // libcurl hands over whole lines; the LF keeps `headers(in:)` from joining two if not.
        if line.last != 0x0A { bytes.append(0x0A) }
        return true
    }

    /// Checks a field line of the head against the framing fields before it; `false` when it
    /// is refused. Spelled as libcurl matches them (any case, no space before the colon: a
    /// field with one is no field to libcurl, and ``CurlResponseHeadParser`` drops it).
    private mutating func recordFraming(_ line: UnsafeRawBufferPointer, first: UInt8) -> Bool {
        let continuesLength = lastLineIsContentLength
        lastLineIsContentLength = false
        switch first {
        case UInt8(ascii: "c"), UInt8(ascii: "C"):
            guard let length = CurlResponseHeadRecorder.contentLength(line) else { return true }
            guard length >= 0, announcedLength < 0 || length == announcedLength else {
                return refuse(.conflictingContentLength)
            }
            guard !hasTransferEncoding else { return refuse(.lengthWithTransferEncoding) }
            announcedLength = length
            lastLineIsContentLength = true
        case UInt8(ascii: "t"), UInt8(ascii: "T"):
            guard CurlResponseHeadRecorder.hasName(line, "transfer-encoding:") else { return true }
            guard announcedLength < 0 else { return refuse(.lengthWithTransferEncoding) }
            hasTransferEncoding = true
        case 0x20, 0x09:
            // An obs-fold continuing Content-Length: callers would read `5 10` where libcurl
            // framed by 5.
            guard !continuesLength else { return refuse(.conflictingContentLength) }
        default:
            break
        }
        return true
    }

    /// Whether libcurl began a new response, so a status line here starts its head.
    private func beginsResponse(requestsSent: () -> RequestsSent) -> Bool {
        if bytes.isEmpty { return true }
        guard isHeadComplete else { return false }
        if (100..<200).contains(statusCode) { return true }
        // libcurl reads a new response only after sending a new request. Without one (a 2xx,
        // a 3xx it does not follow), what follows the blank line is the body's trailers.
        guard let before = sentAtHeadEnd else { return false }
        let now = requestsSent()
        return now.redirects > before.redirects || now.bytes > before.bytes
    }

    private mutating func refuse(_ violation: Violation) -> Bool {
        self.violation = violation
        return false
    }

    /// Whether `line` starts with `name` (lowercase, with its colon) in any case, as libcurl's
    /// `checkprefix` matches a field.
    static func hasName(_ line: UnsafeRawBufferPointer, _ name: StaticString) -> Bool {
        let nameLength = name.utf8CodeUnitCount
        guard line.count >= nameLength else { return false }
        for index in 0..<nameLength {
            let byte = line[index]
            let lowered = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
            guard lowered == name.utf8Start[index] else { return false }
        }
        return true
    }

    /// The value of a `Content-Length:` line (any case, no space before the colon, as libcurl
    /// reads it): the number, `-1` when the value is no list of equal decimal numbers, `nil`
    /// when the line is another field.
    static func contentLength(_ line: UnsafeRawBufferPointer) -> Int64? {
        let name: StaticString = "content-length:"
        let nameLength = name.utf8CodeUnitCount
        guard hasName(line, name) else { return nil }
        let value = CurlResponseHeadParser.withoutLineEnd(UnsafeRawBufferPointer(rebasing: line[nameLength...]))
        // RFC 9110 §8.6: a list of one repeated value is that value; any other list is an error.
        var result: Int64 = -1
        var start = 0
        while start <= value.count {
            var end = start
            while end < value.count, value[end] != UInt8(ascii: ",") { end += 1 }
            var lower = start, upper = end
            while lower < upper, value[lower] == 0x20 || value[lower] == 0x09 { lower += 1 }
            while upper > lower, value[upper - 1] == 0x20 || value[upper - 1] == 0x09 { upper -= 1 }
            guard lower < upper else { return -1 }
            var number: Int64 = 0
            for digit in value[lower..<upper] {
                guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return -1 }
                let (times, overflowed) = number.multipliedReportingOverflow(by: 10)
                let (sum, overflowedAgain) = times.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
                guard !overflowed, !overflowedAgain else { return -1 }
                number = sum
            }
            guard result < 0 || result == number else { return -1 }
            result = number
            start = end + 1
        }
        return result
    }

    /// The fields of recorded lines: the lines are cut after each LF and fed to
    /// ``CurlResponseHeadParser`` one at a time, as libcurl handed them over. (libcurl hands
    /// over one line per call, ending at its LF: an HTTP/1 head is cut at each LF, and its
    /// HTTP/2 and 3 decoders refuse CR and LF inside a field.)
    static func headers(in bytes: [UInt8]) -> HTTPHeaders {
        var parser = CurlResponseHeadParser()
        bytes.withUnsafeBytes { all in
            guard let base = all.baseAddress else { return }
            var start = 0
            while start < all.count {
                let end = memchr(base + start, 0x0A, all.count - start)
                    .map { base.distance(to: UnsafeRawPointer($0)) + 1 } ?? all.count
                parser.consume(UnsafeRawBufferPointer(rebasing: all[start..<end]))
                start = end
            }
        }
        return parser.headers
    }
}
