#if canImport(Glibc)
import Glibc
#endif

/// The loop thread's half of reading a response head: it keeps the lines of the current head
/// as libcurl hands them over and reads only the status line, which the loop itself needs (a
/// download writes only a `2xx` body to its file; a resumed one appends only on `206`).
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

    /// The status code of the current head; 0 before its status line.
    private(set) var statusCode = 0
    /// The version from the current head's status line.
    private(set) var httpVersion: HTTPVersion = .unknown
    /// The lines of the current head, from its status line on, each ending in LF. Lines
    /// before the first status line are kept too, as the parser would keep them.
    private(set) var bytes: [UInt8] = []

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

    /// Records one header line, with or without its line ending. A status line starts a new
    /// head and drops the previous one (a redirect's, or `100 Continue`).
    mutating func record(_ line: UnsafeRawBufferPointer) {
        // "HTTP/" is at the start of the line with or without its ending: only a status line
        // needs the ending cut off.
        if CurlResponseHeadParser.isStatusLine(line) {
            bytes.removeAll(keepingCapacity: true)
            (statusCode, httpVersion) = CurlResponseHeadParser.readStatusLine(CurlResponseHeadParser.withoutLineEnd(line))
        }
        // As typed bytes, the append is one capacity check and a `memcpy`.
        bytes.append(contentsOf: line.assumingMemoryBound(to: UInt8.self))
        // libcurl hands over whole lines; the LF keeps `headers(in:)` from joining two if not.
        if line.last != 0x0A { bytes.append(0x0A) }
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
