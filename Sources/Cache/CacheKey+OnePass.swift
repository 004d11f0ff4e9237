import Foundation

extension CacheKey {
    /// The canonical URL (as ``canonicalURL(_:ignoredParameters:)`` makes it from `URLComponents`)
    /// built in one pass over the absolute URL's text, for the URLs most requests have: ASCII,
    /// a scheme followed by `//`, a host of letters, digits, `-`, `.`, `_` and `~`, an optional
    /// decimal port, and a path, query and fragment of characters RFC 3986 allows there, with
    /// well-formed escapes. `nil` for anything else — a user, an IPv6 or percent-encoded host,
    /// a `+unix` scheme, IDN (also in punycode), characters a URL must escape —, which then goes through
    /// `URLComponents` as before. Parsing the URL again with `URLComponents` was the largest
    /// part of a held hit's cost; the produced text is the same byte for byte (the key names
    /// the entry's file).
    static func onePassCanonicalURL(_ text: String, ignoredParameters: Set<String>) -> String? {
        var output: [UInt8] = []
        guard appendOnePassCanonicalURL(text, ignoredParameters: ignoredParameters, to: &output) else { return nil }
        return String(decoding: output, as: UTF8.self)
    }

    /// ``onePassCanonicalURL(_:ignoredParameters:)`` appended to `output` (the key's text);
    /// `false`, with `output` as it was, when the URL is left to `URLComponents`.
    static func appendOnePassCanonicalURL(_ text: String, ignoredParameters: Set<String>, to output: inout [UInt8]) -> Bool {
        let start = output.count
        var text = text
        let appended = text.withUTF8 { bytes in appendOnePassCanonicalURL(bytes, ignoredParameters: ignoredParameters, to: &output) }
        if !appended { output.removeSubrange(start...) }
        return appended
    }

    private static func appendOnePassCanonicalURL(_ bytes: UnsafeBufferPointer<UInt8>, ignoredParameters: Set<String>,
                                                  to output: inout [UInt8]) -> Bool {
        let end = bytes.count
        // Scheme: a letter, then letters, digits, `+`, `-`, `.`.
        var index = 0
        guard end > 0, isASCIILetter(bytes[0]) else { return false }
        while index < end, isSchemeByte(bytes[index]) { index += 1 }
        let schemeEnd = index
        guard end - index >= 3, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"),
              bytes[index + 2] == UInt8(ascii: "/") else { return false }
        index += 3
        let schemeStart = output.count
        output.reserveCapacity(schemeStart + end + 8)
        for byte in bytes[0..<schemeEnd] { output.append(lowercased(byte)) }
        let scheme = output[schemeStart...]
        if scheme.count >= 5, scheme.suffix(5).elementsEqual("+unix".utf8) { return false }
        let isHTTP = scheme.elementsEqual("http".utf8)
        let isHTTPS = scheme.elementsEqual("https".utf8)
        output.append(contentsOf: "://".utf8)
        // Host.
        let hostStart = index
        while index < end, isSimpleHostByte(bytes[index]) {
            output.append(lowercased(bytes[index]))
            index += 1
        }
        // `URLComponents` shows a punycode label (`xn--…`) as percent-encoded Unicode: that
        // host is left to it.
        let host = output[(output.count - (index - hostStart))...]
        guard index > hostStart, !containsPunycodeLabel(host) else { return false }
        // Port: 1 to 5 digits, at most 65535; the scheme's default is dropped.
        if index < end, bytes[index] == UInt8(ascii: ":") {
            index += 1
            let portStart = index
            var port = 0
            while index < end, isDigit(bytes[index]) {
                port = port * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
                guard index - portStart <= 5 else { return false }
            }
            guard index > portStart, port <= 65535 else { return false }
            if !(isHTTP && port == 80), !(isHTTPS && port == 443) {
                output.append(UInt8(ascii: ":"))
                output.append(contentsOf: String(port).utf8)
            }
        }
        // What follows the authority must start the path, query or fragment (anything else,
        // such as `@` or `[`, is a form left to `URLComponents`).
        guard index == end || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?")
                || bytes[index] == UInt8(ascii: "#") else { return false }
        // Path, query and fragment: only the bytes RFC 3986 allows there, escapes well formed.
        var queryStart: Int?
        var fragmentStart: Int?
        var scan = index
        while scan < end {
            let byte = bytes[scan]
            if byte == UInt8(ascii: "%") {
                guard end - scan >= 3, isHexDigit(bytes[scan + 1]), isHexDigit(bytes[scan + 2]) else { return false }
                scan += 3
                continue
            }
            if byte == UInt8(ascii: "?"), queryStart == nil, fragmentStart == nil {
                queryStart = scan
            } else if byte == UInt8(ascii: "#"), fragmentStart == nil {
                fragmentStart = scan
            } else if !isPathQueryOrFragmentByte(byte) {
                return false
            }
            scan += 1
        }
        let pathEnd = queryStart ?? fragmentStart ?? end
        if pathEnd == index {
            output.append(UInt8(ascii: "/"))
        } else {
            output.append(contentsOf: bytes[index..<pathEnd])
        }
        if let queryStart {
            let query = UnsafeBufferPointer(rebasing: bytes[(queryStart + 1)..<(fragmentStart ?? end)])
            appendCanonicalQuery(query, ignoredParameters: ignoredParameters, to: &output)
        }
        return true
    }

    /// ``canonicalQuery(_:ignoredParameters:)`` on the bytes of an ASCII query, appended to
    /// `output` with its `?` when a parameter is left. A name or value that is already in
    /// canonical form (the usual case) is copied as it is; any other goes through
    /// ``normalizedComponent(_:)``. Names are ASCII, so byte order is `String`'s order.
    private static func appendCanonicalQuery(_ query: UnsafeBufferPointer<UInt8>, ignoredParameters: Set<String>,
                                             to output: inout [UInt8]) {
        // Each pair is written once into `canonical`; the sort moves only their ranges.
        var pairs: [(name: Range<Int>, pair: Range<Int>)] = []
        var canonical: [UInt8] = []
        canonical.reserveCapacity(query.count + 8)
        var start = 0
        while start <= query.count {
            var pieceEnd = start
            while pieceEnd < query.count, query[pieceEnd] != UInt8(ascii: "&") { pieceEnd += 1 }
            defer { start = pieceEnd + 1 }
            guard pieceEnd > start else { continue }
            var equals = start
            while equals < pieceEnd, query[equals] != UInt8(ascii: "=") { equals += 1 }
            let rawName = UnsafeBufferPointer(rebasing: query[start..<equals])
            if !ignoredParameters.isEmpty {
                let name = String(decoding: rawName, as: UTF8.self)
                if isIgnored(name.removingPercentEncoding ?? name, ignoredParameters) { continue }
            }
            let pairStart = canonical.count
            appendNormalizedComponent(rawName, to: &canonical)
            let nameEnd = canonical.count
            if equals < pieceEnd {
                canonical.append(UInt8(ascii: "="))
                appendNormalizedComponent(UnsafeBufferPointer(rebasing: query[(equals + 1)..<pieceEnd]), to: &canonical)
            }
            pairs.append((pairStart..<nameEnd, pairStart..<canonical.count))
        }
        guard !pairs.isEmpty else { return }
        if pairs.count > 1 {
            canonical.withUnsafeBufferPointer { text in
                // Stable by name (the sort may not be): parameters of the same name keep their order.
                let ordered = pairs.enumerated().sorted { first, second in
                    let a = text[first.element.name], b = text[second.element.name]
                    return a.elementsEqual(b) ? first.offset < second.offset : a.lexicographicallyPrecedes(b)
                }
                pairs = ordered.map(\.element)
            }
        }
        output.append(UInt8(ascii: "?"))
        for (offset, pair) in pairs.enumerated() {
            if offset > 0 { output.append(UInt8(ascii: "&")) }
            output.append(contentsOf: canonical[pair.pair])
        }
    }

    private static func appendNormalizedComponent(_ raw: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        if raw.allSatisfy({ $0 == UInt8(ascii: "+") || isCanonicallyUnencoded($0) }) {
            output.append(contentsOf: raw)
        } else {
            output.append(contentsOf: normalizedComponent(Substring(decoding: raw, as: UTF8.self)).utf8)
        }
    }

    /// Whether a (lower-cased) host has a label that starts with `xn--`.
    private static func containsPunycodeLabel(_ host: ArraySlice<UInt8>) -> Bool {
        var labelStart = host.startIndex
        while host.endIndex - labelStart >= 4 {
            if host[labelStart] == UInt8(ascii: "x"), host[labelStart + 1] == UInt8(ascii: "n"),
               host[labelStart + 2] == UInt8(ascii: "-"), host[labelStart + 3] == UInt8(ascii: "-") { return true }
            guard let dot = host[labelStart...].firstIndex(of: UInt8(ascii: ".")) else { return false }
            labelStart = dot + 1
        }
        return false
    }

    private static func isASCIILetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    private static func isSimpleHostByte(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "~")
    }

    /// RFC 3986's `pchar`, `/` and `?` without `%` (escapes are checked on their own).
    private static func isPathQueryOrFragmentByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"),
             UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
             UInt8(ascii: ":"), UInt8(ascii: "@"), UInt8(ascii: "/"), UInt8(ascii: "?"):
            true
        default:
            false
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
