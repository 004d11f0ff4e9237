import Foundation
import HTTPCore
import HTTPFeatures

/// Reads a parameter tree out of fuzzer bytes: every case of `Parameter`, any string bytes
/// (repaired to valid UTF-8 as `String(decoding:)` does), any double bit pattern (NaN and
/// infinity included), nesting up to a fixed depth.
struct TreeReader {
    let bytes: UnsafeRawBufferPointer
    var index = 0

    mutating func byte() -> UInt8 {
        guard index < bytes.count else { return 0 }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func word() -> UInt64 {
        (0..<8).reduce(0) { value, _ in value << 8 | UInt64(byte()) }
    }

    mutating func string() -> String {
        let length = Int(byte() % 24)
        var raw: [UInt8] = []
        for _ in 0..<length where index < bytes.count { raw.append(byte()) }
        return String(decoding: raw, as: UTF8.self)
    }

    mutating func parameter(depth: Int) -> Parameter {
        switch byte() % (depth > 3 ? 5 : 7) {
        case 0: return .string(string())
        case 1: return .int(Int(truncatingIfNeeded: word()))
        case 2: return .double(Double(bitPattern: word()))
        case 3: return .bool(byte() & 1 == 1)
        case 4: return .null
        case 5: return .array((0..<Int(byte() % 4)).map { _ in parameter(depth: depth + 1) })
        default: return .dictionary(dictionary(depth: depth + 1))
        }
    }

    mutating func dictionary(depth: Int) -> [String: Parameter] {
        var result: [String: Parameter] = [:]
        for _ in 0..<Int(byte() % 5) { result[string()] = parameter(depth: depth) }
        return result
    }
}

func containsNonFinite(_ parameter: Parameter) -> Bool {
    switch parameter {
    case .double(let value): !value.isFinite
    case .array(let items): items.contains(where: containsNonFinite)
    case .dictionary(let members): members.values.contains(where: containsNonFinite)
    default: false
    }
}

/// The characters `urlEncodedString` may write: RFC 3986 unreserved, `%XX`, `?`, `/`, `=`, `&`.
func isURLEncodedText(_ text: String) -> Bool {
    text.utf8.allSatisfy { byte in
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            "-._~%?/=&".utf8.contains(byte)
        }
    }
}

/// libFuzzer entry: the first byte picks the source — a tree read from the bytes, or the bytes
/// parsed as JSON and converted with `Parameter(any:)` — then the tree goes through every
/// encoder and the curl renderer, and their promises are checked.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParameters(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    var parameters: [String: Parameter]
    if data[0] & 1 == 0 {
        var reader = TreeReader(bytes: input)
        parameters = reader.dictionary(depth: 0)
    } else {
        guard let object = try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed]),
              let dictionary = object as? [String: Any],
              let converted = try? Parameter.dictionary(from: dictionary) else { return 0 }
        parameters = converted
    }

    // The URL and form encoding: only safe characters, so nothing can break out of a query.
    let encoded = ParameterEncoding.urlEncodedString(parameters)
    precondition(isURLEncodedText(encoded), "unsafe character in \(encoded.debugDescription)")

    // The query encoder never changes where the request goes.
    if var request = try? HTTPRequest("http://fuzz.invalid:8080/path?x=1") {
        do throws(NetworkError) {
            try ParameterEncoding.query.encode(parameters, into: &request)
            precondition(request.url.host == "fuzz.invalid" && request.url.port == 8080 && request.url.path == "/path",
                         "the query moved the request to \(request.url.absoluteString)")
        } catch {
            precondition(error.kind == .invalidURL, "unexpected \(error)")
        }
        try? ParameterEncoding.form.encode(parameters, into: &request)
        _ = request.curlCommand()
    }

    // JSON: refused exactly when a number is not finite; otherwise valid JSON, and the same
    // bytes every time (the cache key relies on it).
    do throws(NetworkError) {
        let json = try ParameterEncoding.jsonData(.dictionary(parameters))
        precondition(!parameters.values.contains(where: containsNonFinite), "a non-finite number was encoded")
        guard let object = try? JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed]) else {
            preconditionFailure("not JSON: \(String(decoding: json, as: UTF8.self))")
        }
        precondition(object is [String: Any], "not a JSON object")
        // (Not compared value by value: JSONSerialization on Linux — and FastJSON's
        // `jsonObject`, which matches it — read some doubles a few ULPs off, e.g.
        // 1.3681093809282043e-71; the encoder's output is Swift's shortest round-trip form.)
        let again = try ParameterEncoding.jsonData(.dictionary(parameters))
        precondition(again == json, "not deterministic")
        if var request = try? HTTPRequest("http://fuzz.invalid/", method: .post) {
            try ParameterEncoding.json.encode(parameters, into: &request)
            _ = request.curlCommand(redacting: .default, maximumBodyBytes: 64)
        }
    } catch {
        precondition(error.kind == .invalidParameters && parameters.values.contains(where: containsNonFinite),
                     "unexpected \(error)")
    }
    return 0
}
