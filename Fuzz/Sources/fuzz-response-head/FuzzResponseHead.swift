@testable import Cache
@testable import CurlTransport
import Foundation
@testable import HTTPCore
import HTTPFeatures

/// libFuzzer entry: the input is what a server sent before the body. libcurl hands the header
/// callback one line at a time (each with its line ending), so the input is cut after every
/// LF and fed line by line, as `CurlTransfer`'s header callback does (to the recorder the
/// engine uses, and to the parser directly, which must agree); then everything that reads
/// response headers later runs on the result.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    var parser = CurlResponseHeadParser()
    var recorder = CurlResponseHeadRecorder()
    var lines = 0
    var start = 0
    // A line the recorder refuses (a status line where libcurl began no response, conflicting
    // lengths) ends the transfer in the engine: nothing after it is parsed. libcurl is taken
    // to have sent one more request each time the recorder asks (following every redirect).
    var sent = 0
    func feed(_ line: UnsafeRawBufferPointer) -> Bool {
        let accepted = recorder.record(line) {
            sent += 1
            return CurlResponseHeadRecorder.RequestsSent(redirects: sent, bytes: sent)
        }
        guard accepted else { return false }
        parser.consume(line)
        lines += 1
        return true
    }
    var accepted = true
    for index in 0..<size where input[index] == 0x0A && accepted {
        accepted = feed(UnsafeRawBufferPointer(rebasing: input[start...index]))
        start = index + 1
    }
    if accepted, start < size { _ = feed(UnsafeRawBufferPointer(rebasing: input[start..<size])) }

    // The engine records lines on the loop thread and parses them on the callback thread:
    // that must give exactly what parsing each line as it arrives gives.
    precondition(recorder.statusCode == parser.statusCode, "the recorder read status \(recorder.statusCode)")
    precondition(recorder.httpVersion == parser.httpVersion, "the recorder read another version")
    precondition(CurlResponseHeadRecorder.headers(in: recorder.bytes) == parser.headers, "recorded lines parse differently")

    // What the parser promises.
    precondition((0...999).contains(parser.statusCode), "status \(parser.statusCode) out of range")
    precondition(parser.headCount <= lines, "more heads than lines")
    precondition(!parser.isHeadComplete || parser.statusCode != 0 || parser.headCount > 0, "a head completed without a status line")
    for field in parser.headers {
        precondition(!field.name.utf8.contains(UInt8(ascii: ":")), "a header name holds a colon")
        let isBreak: (UInt8) -> Bool = { $0 == 0x0D || $0 == 0x0A || $0 == 0 }
        precondition(!field.name.utf8.contains(where: isBreak) && !field.value.utf8.contains(where: isBreak),
                     "a CR, LF or NUL inside a field")
    }

    // What reads the head afterwards: lookups, the content type, the text encoding, the
    // cache's directives, dates and freshness, Vary.
    let headers = parser.headers
    _ = headers.dictionary
    _ = headers.names
    _ = headers["Content-Length"].flatMap(Int64.init)
    guard let url = URL(string: "http://fuzz.invalid/") else { return 0 }
    let response = HTTPResponse(statusCode: max(parser.statusCode, 100), headers: headers, body: Data("ok".utf8), url: url)
    _ = response.mimeType
    _ = response.charset
    _ = response.textEncoding
    _ = try? response.text()
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    let control = CacheControl(headers: headers)
    _ = control.maxAge
    _ = CacheStrategy.freshnessLifetime(statusCode: response.statusCode, headers: headers, receivedAt: now)
    _ = CacheStrategy.isStorable(method: .get, requestHeaders: HTTPHeaders(), statusCode: response.statusCode,
                                 responseHeaders: headers)
    for name in ["Date", "Expires", "Last-Modified"] {
        if let value = headers[name] { _ = HTTPDate.parse(value) }
    }
    let entry = CacheEntry(key: CacheKey(rawValue: "fuzz"), url: url, statusCode: response.statusCode, headers: headers,
                           body: response.body, requestSentAt: now.addingTimeInterval(-1), storedAt: now)
    _ = entry.expiresAt
    _ = CacheStrategy.currentAge(of: entry, now: now.addingTimeInterval(30))
    _ = CacheStrategy.decide(method: .get, requestHeaders: headers, stored: entry, now: now.addingTimeInterval(30))
    _ = CacheStrategy.headersAfterRevalidation(stored: headers, notModified: headers)
    return 0
}
