@testable import Cache
@testable import CurlTransport
import Digest
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// Inputs from the fuzz targets in `Fuzz/` (`make fuzz`), inline, with the promise each one
/// checks. No fuzz run so far crashed library code; these are the inputs that tripped a
/// harness invariant (and so showed where a promise needed stating precisely) plus the edge
/// cases of each surface whose defence would crash or misbehave if removed.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    // MARK: Response heads (fuzz-response-head)

    /// Feeds `text` line by line, as libcurl's header callback does, to a recorder on the
    /// "loop thread" whose lines are parsed afterwards (`CurlResponseHeadRecorder`), and each
    /// line it accepts to the parser directly; the two must agree on every input. libcurl is
    /// taken to send a new request after every head (following each redirect).
    private func parse(_ text: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) -> CurlResponseHeadParser {
        var parser = CurlResponseHeadParser()
        var recorder = CurlResponseHeadRecorder()
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for index in text.indices where text[index] == 0x0A {
            lines.append(text[start...index])
            start = index + 1
        }
        if start < text.count { lines.append(text[start...]) }
        // A libcurl that sent one more request each time it is asked.
        var sent = 0
        for line in lines {
            let accepted = line.withUnsafeBytes { bytes in
                recorder.record(bytes) {
                    sent += 1
                    return CurlResponseHeadRecorder.RequestsSent(redirects: sent, bytes: sent)
                }
            }
            #expect(accepted, "refused: \(String(decoding: line, as: UTF8.self))", sourceLocation: sourceLocation)
            guard accepted else { break }
            line.withUnsafeBytes { parser.consume($0) }
        }
        #expect(recorder.statusCode == parser.statusCode, sourceLocation: sourceLocation)
        #expect(recorder.httpVersion == parser.httpVersion, sourceLocation: sourceLocation)
        #expect(CurlResponseHeadRecorder.headers(in: recorder.bytes) == parser.headers, sourceLocation: sourceLocation)
        return parser
    }

    /// A status code of twenty digits: only the first three are read. Defence: the parser's
    /// three-digit limit — without it `code * 10 + digit` overflows and traps.
    @Test func anOverlongStatusCodeDoesNotOverflow() {
        let parser = parse(Array("HTTP/1.1 99999999999999999999999 Huge\r\nA: b\r\n\r\n".utf8))
        #expect(parser.statusCode == 999)
        #expect(parser.headers["A"] == "b")
    }

    /// Status lines read on bytes: every version spelling, codes with and without a reason,
    /// and a code token that is not all digits (status 0, as before the byte-level reader).
    @Test(arguments: [
        ("HTTP/1.1 200 OK", 200, HTTPVersion.http1_1), ("HTTP/1.0 404 Not Found", 404, .http1_0),
        ("HTTP/2 204", 204, .http2), ("HTTP/2.0 301 Moved", 301, .http2), ("HTTP/3 200", 200, .http3),
        ("HTTP/1.1   503   Busy", 503, .http1_1), ("HTTP/1.1 2x0 Odd", 0, .http1_1), ("HTTP/1.1 20", 20, .http1_1),
        ("HTTP/9.9 200", 200, .unknown), ("HTTP/1.1", 0, .http1_1),
    ])
    func statusLinesAreReadOnBytes(line: String, status: Int, version: HTTPVersion) {
        let parser = parse(Array("\(line)\r\n\r\n".utf8))
        #expect(parser.statusCode == status)
        #expect(parser.httpVersion == version)
    }

    /// Lines the parser must ignore without crashing: a fold before any field, a line that is
    /// only a colon, invalid UTF-8 in names and values, a lone CR (which becomes a space).
    /// Defence: the guards in `consume` (`headers.fields.last`, `colon > 0`), `String(decoding:)`
    /// repairing bytes, and `fieldString` replacing CR.
    @Test func malformedLinesAreIgnoredOrRepaired() {
        var input = Array("HTTP/1.1 200 OK\r\n folded-before-anything\r\n:\r\n".utf8)
        input += [0xFF, 0xFE, 0x3A, 0x20, 0xC3, 0x28, 0x0D, 0x0A]  // "\u{FF}\u{FE}: \u{C3}(" CRLF
        input += Array("X-Lone: a\rb\r\n\t  continued  \r\n\r\n".utf8)
        let parser = parse(input)
        #expect(parser.statusCode == 200)
        #expect(parser.headCount == 1)
        #expect(parser.headers.count == 2)
        #expect(parser.headers.fields.first?.name == "\u{FFFD}\u{FFFD}")
        #expect(parser.headers["X-Lone"] == "a b continued")
        #expect(parser.isHeadComplete)
    }

    /// Common names are shared constants only when spelled exactly as listed; every other
    /// spelling and near-miss keeps the bytes that were sent. A name padded before its colon
    /// is no field (libcurl does not read it either) and is dropped.
    /// Defence: `fieldName`'s length and byte comparison before it picks a constant.
    @Test func commonNamesKeepTheSpellingThatWasSent() {
        let parser = parse(Array(("HTTP/1.1 200 OK\r\nContent-Type: a\r\ncontent-type: b\r\nDate \t: c\r\n"
            + "Content-Typ: d\r\nContent-Types: e\r\nETag:f\r\nX-Date: g\r\n\r\n").utf8))
        #expect(parser.headers.fields.map(\.name)
            == ["Content-Type", "content-type", "Content-Typ", "Content-Types", "ETag", "X-Date"])
        #expect(parser.headers.fields.map(\.value) == ["a", "b", "d", "e", "f", "g"])
    }

    /// Only the last head survives (100 Continue, redirects), and trailers after it stay.
    /// Defence: `startHead` resetting the fields.
    @Test func onlyTheFinalHeadIsKept() {
        let parser = parse(Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 302 Found\r\nLocation: /x\r\n\r\nHTTP/2 201\r\nA: 1\r\n\r\nTrailer: t\r\n".utf8))
        #expect(parser.statusCode == 201)
        #expect(parser.httpVersion == .http2)
        #expect(parser.headers["Location"] == nil)
        #expect(parser.headers["Trailer"] == "t")
    }

    /// The loop thread keeps only the last head's lines, from its status line on; a line
    /// handed over without its ending still ends up a line of its own; a recorder made with
    /// room for a head keeps that room across heads, so the loop thread does not allocate.
    /// Defence: `record` dropping the bytes on a status line and appending a missing LF.
    @Test func theRecorderKeepsTheLastHeadAsLines() {
        var recorder = CurlResponseHeadRecorder(capacity: CurlResponseHeadRecorder.typicalCapacity)
        let buffer = recorder.bytes.withUnsafeBufferPointer { $0.baseAddress }
        for line in ["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 404 Not Found\r\n", "A: 1\r\n", "B: 2", "C: 3\n"] {
            #expect(Array(line.utf8).withUnsafeBytes {
                recorder.record($0) { CurlResponseHeadRecorder.RequestsSent(redirects: 0, bytes: 0) }
            })
        }
        #expect(recorder.statusCode == 404)
        #expect(recorder.httpVersion == .http1_1)
        #expect(String(decoding: recorder.bytes, as: UTF8.self) == "HTTP/1.1 404 Not Found\r\nA: 1\r\nB: 2\nC: 3\n")
        #expect(recorder.bytes.withUnsafeBufferPointer { $0.baseAddress } == buffer)
        let headers = CurlResponseHeadRecorder.headers(in: recorder.bytes)
        #expect(headers.fields.map(\.name) == ["A", "B", "C"])
        #expect(headers.fields.map(\.value) == ["1", "2", "3"])
        #expect(CurlResponseHeadRecorder.headers(in: []).isEmpty)
    }

    // MARK: Parameters (fuzz-parameters)

    /// The JSON encoder writes doubles in Swift's shortest round-trip form, so `JSONDecoder`
    /// reads back the very same value. Found by fuzz-parameters: Foundation's
    /// `JSONSerialization` on Linux (and FastJSON's `jsonObject`, which matches it) reads
    /// `1.3681093809282043e-71` six ULPs off — a Foundation limitation, not the encoder's.
    /// Defence: `ParameterEncoding.formatDouble` (a `%g`-style format would lose digits).
    @Test func doublesAreEncodedExactly() throws {
        let values = [1.3681093809282043e-71, 1.0994231646708606e-142, -8.753160913407277e+18, 0.1, 1e300, .leastNonzeroMagnitude,
                      Double.greatestFiniteMagnitude, 123_456_789_012_345.0]
        let json = try ParameterEncoding.jsonData(.array(values.map(Parameter.double)))
        let decoded = try JSONDecoder().decode([Double].self, from: json)
        #expect(decoded.map(\.bitPattern) == values.map(\.bitPattern), "\(String(decoding: json, as: UTF8.self))")
    }

    /// Large integers stay integers: `-8753160913407277434` (from fuzz-parameters, where it came
    /// back from `JSONSerialization` as a double) is written digit for digit.
    /// Defence: `.int` written with `String(Int)`, never through `Double`.
    @Test func largeIntegersAreEncodedExactly() throws {
        let json = try ParameterEncoding.jsonData(.dictionary(["n": .int(-8_753_160_913_407_277_434), "m": .int(.max)]))
        #expect(String(decoding: json, as: UTF8.self) == #"{"m":9223372036854775807,"n":-8753160913407277434}"#)
    }

    /// Keys and values of any bytes cannot break out of a query: everything but RFC 3986's
    /// unreserved characters (and `?`, `/`) is percent-encoded, brackets and `&`/`=` included.
    /// Defence: `ParameterEncoding.percentEncode`.
    @Test func queryEncodingCannotMoveTheRequest() throws {
        let hostile = "a&b=c#frag\r\n@evil.example:80/[x]%zz\u{FFFD}"
        var request = try HTTPRequest("http://fuzz.invalid:8080/path?x=1")
        try ParameterEncoding.query.encode([hostile: .dictionary([hostile: .array([.string(hostile)])])], into: &request)
        #expect(request.url.host == "fuzz.invalid")
        #expect(request.url.port == 8080)
        #expect(request.url.path == "/path")
        #expect(request.url.fragment == nil)
        let query = try #require(request.url.query)
        #expect(query.hasPrefix("x=1&"))
        #expect(query.split(separator: "&").count == 2)
    }

    // MARK: Cache metadata (fuzz-cache-entry)

    /// A well-framed metadata file whose body file name walks out of the store is refused.
    /// Defence: `CacheMetadata.validationProblem` → `DiskCache.isBodyFileName`.
    @Test func aBodyFileOutsideTheStoreIsRefused() throws {
        let hash = SHA256.hexDigest("key")
        for bodyFile in ["../../etc/passwd", "\(hash)-../../../etc/p.body", "/etc/passwd", "\(hash)-0123456789abcdeg.body"] {
            let metadata = try decodedMetadata(bodyFile: bodyFile, bodyLength: 0)
            #expect(metadata.validationProblem(fileName: hash, maximumBodyLength: 1 << 20) != nil, "\(bodyFile)")
        }
        let good = try decodedMetadata(bodyFile: "\(hash)-0123456789abcdef.body", bodyLength: 0)
        #expect(good.validationProblem(fileName: hash, maximumBodyLength: 1 << 20) == nil)
    }

    /// An absurd length field or body length is refused before anything is allocated from it.
    /// Defence: `CacheMetadata.decode`'s length check and `validationProblem`'s body limit.
    @Test func absurdLengthsAreRefused() throws {
        let payload = Data("{}".utf8)
        if case .success = CacheMetadata.decode(CacheMetadata.frame(payload, declaredLength: 1 << 62)) {
            Issue.record("a length field of 2^62 was accepted")
        }
        let hash = SHA256.hexDigest("key")
        let huge = try decodedMetadata(bodyFile: "\(hash)-0123456789abcdef.body", bodyLength: .max)
        #expect(huge.validationProblem(fileName: hash, maximumBodyLength: 1 << 20) != nil)
    }

    private func decodedMetadata(bodyFile: String, bodyLength: Int64) throws -> CacheMetadata {
        let object: [String: Any] = [
            "key": "key", "url": "http://fuzz.invalid/", "statusCode": 200, "httpVersion": "HTTP/1.1",
            "headers": [["A", "b"]], "requestSentAt": 1.0, "storedAt": 2.0, "varyValues": [String: String](),
            "bodyFile": bodyFile, "bodyLength": bodyLength, "bodySHA256": SHA256.hexDigest(Data()),
        ]
        let payload = try JSONSerialization.data(withJSONObject: object)
        switch CacheMetadata.decode(CacheMetadata.frame(payload)) {
        case .success(let metadata): return metadata
        case .failure(let error): throw TestFailure(error.reason)
        }
    }
}
