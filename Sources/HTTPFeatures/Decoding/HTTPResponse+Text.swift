import Foundation
import HTTPCore
#if canImport(Glibc)
import Glibc
#endif

extension HTTPResponse {
    /// The Foundation `String.Encoding` constant for the `charset` of `Content-Type`, or `nil`
    /// when there is none or Foundation has no named constant for it. Knows UTF-8/16/32,
    /// US-ASCII, ISO-8859-1/2, windows-1250…1254, Shift_JIS, EUC-JP and ISO-2022-JP.
    ///
    /// ``text(defaultEncoding:)`` decodes many more charsets than this lists (every name and
    /// alias the system's iconv knows: GBK, GB18030, Big5, EUC-KR, KOI8-R, windows-1255…1258,
    /// ISO-8859-3…16, …), so `nil` here does not mean the body cannot be read as text.
    public var textEncoding: String.Encoding? {
        charset.flatMap(HTTPResponse.encoding(forCharset:))
    }

    /// The body as text, in the `charset` of `Content-Type` or else `defaultEncoding`.
    ///
    /// A named charset is decoded with glibc's iconv, which knows every charset name and alias
    /// in its `gconv` modules (part of Debian's `libc6`): GBK, GB2312, GB18030, Big5, Shift_JIS,
    /// EUC-JP, EUC-KR, windows-1250…1258, ISO-8859-1…16, KOI8-R and many more; the WHATWG
    /// labels iconv does not spell (`x-sjis`, `ks_c_5601-1987`, …) are read as the charset they
    /// name, and `gb2312` as GBK, its superset, as browsers do.
    ///
    /// - Parameter defaultEncoding: used when the response names no charset or one the system
    ///   cannot decode. Default `.utf8`.
    /// - Throws: ``NetworkError/Kind/decodingFailed`` when the bytes are not valid in that charset.
    public func text(defaultEncoding: String.Encoding = .utf8) throws(NetworkError) -> String {
        if body.isEmpty { return "" }
        var encoding = defaultEncoding
        if let charset {
            if charset != "utf-8", charset != "utf8" {
                switch HTTPResponse.iconvDecode(body, charset: charset) {
                case .decoded(let text): return text
                case .invalidBytes:
                    throw NetworkError(.decodingFailed, "the body is not valid \(charset) text (\(body.count) bytes)",
                                       response: self)
                case .unknownCharset: break
                }
            }
            encoding = textEncoding ?? defaultEncoding
        }
        let decoded = encoding == .utf8 ? String(validating: body, as: UTF8.self) : String(data: body, encoding: encoding)
        guard let decoded else {
            throw NetworkError(.decodingFailed, "the body is not valid \(encoding) text (\(body.count) bytes)",
                               response: self)
        }
        return decoded
    }

    static func encoding(forCharset charset: String) -> String.Encoding? {
        switch charset.lowercased() {
        case "utf-8", "utf8": .utf8
        case "us-ascii", "ascii": .ascii
        case "iso-8859-1", "iso_8859-1", "latin1", "l1": .isoLatin1
        case "iso-8859-2", "iso_8859-2", "latin2", "l2": .isoLatin2
        case "utf-16": .utf16
        case "utf-16le": .utf16LittleEndian
        case "utf-16be": .utf16BigEndian
        case "utf-32": .utf32
        case "utf-32le": .utf32LittleEndian
        case "utf-32be": .utf32BigEndian
        case "windows-1250", "cp1250": .windowsCP1250
        case "windows-1251", "cp1251": .windowsCP1251
        case "windows-1252", "cp1252": .windowsCP1252
        case "windows-1253", "cp1253": .windowsCP1253
        case "windows-1254", "cp1254": .windowsCP1254
        case "shift_jis", "shift-jis", "sjis": .shiftJIS
        case "euc-jp": .japaneseEUC
        case "iso-2022-jp": .iso2022JP
        default: nil
        }
    }

    /// The iconv name for `charset`: WHATWG labels glibc does not spell, mapped to the charset
    /// they name; `nil` for a name that is no charset token (iconv reads `//` suffixes as
    /// flags, and `//IGNORE` would drop invalid bytes instead of failing).
    static func iconvName(forCharset charset: String) -> String? {
        let name = charset.lowercased()
        guard !name.isEmpty, name.utf8.count <= 40,
              name.utf8.allSatisfy({ byte in
                  (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                      || "-_.:+".utf8.contains(byte)
              }) else { return nil }
        switch name {
        // GBK is a superset of GB2312, and what servers labelling gb2312 send in practice (WHATWG).
        case "gb2312", "x-gbk", "csgb2312", "chinese", "gb_2312-80", "iso-ir-58": return "GBK"
        case "x-sjis", "ms_kanji", "windows-31j", "x-ms-cp932": return "CP932"
        case "x-euc-jp", "cseucpkdfmtjapanese": return "EUC-JP"
        case "ks_c_5601-1987", "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949", "x-windows-949": return "CP949"
        case "x-mac-roman", "mac", "csmacintosh": return "MACINTOSH"
        case "x-mac-cyrillic", "x-mac-ukrainian": return "MAC-CYRILLIC"
        case "iso-8859-8-i", "csiso88598i", "logical": return "ISO-8859-8"
        case "dos-874", "x-windows-874": return "CP874"
        case "x-cp1250", "x-cp1251", "x-cp1252", "x-cp1253", "x-cp1254", "x-cp1255", "x-cp1256", "x-cp1257", "x-cp1258":
            return "CP" + name.dropFirst(4)
        default: return name
        }
    }

    /// What iconv made of a body.
    enum IconvOutcome: Equatable {
        case decoded(String)
        /// iconv knows the charset, and the bytes are not valid in it (or end mid-character).
        case invalidBytes
        /// iconv knows no charset of that name.
        case unknownCharset
    }

    /// `body` decoded from `charset` with glibc's iconv.
    static func iconvDecode(_ body: Data, charset: String) -> IconvOutcome {
        guard let name = iconvName(forCharset: charset), let converter = iconv_open("UTF-8", name),
              converter != iconv_t(bitPattern: -1) else { return .unknownCharset }
        defer { iconv_close(converter) }
        var input = [UInt8](body)
        // Room for the typical expansion (a CJK character: 2 bytes in, 3 out); doubled on E2BIG.
        var output = [UInt8](repeating: 0, count: body.count * 2 + 16)
        var consumed = 0
        var produced = 0
        /// One call of iconv from where the last stopped; `errno` on failure, else 0. With
        /// `flush`, no input: a stateful charset (ISO-2022-JP) writes its shift back.
        func convert(flush: Bool) -> Int32 {
            input.withUnsafeMutableBytes { source in
                output.withUnsafeMutableBytes { target in
                    guard let inBase = source.baseAddress, let outBase = target.baseAddress else { return EINVAL }
                    var inPointer: UnsafeMutablePointer<CChar>? = (inBase + consumed).assumingMemoryBound(to: CChar.self)
                    var inLeft = source.count - consumed
                    var outPointer: UnsafeMutablePointer<CChar>? = (outBase + produced).assumingMemoryBound(to: CChar.self)
                    var outLeft = target.count - produced
                    let result = flush ? iconv(converter, nil, nil, &outPointer, &outLeft)
                        : iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                    let error = result == -1 ? errno : 0
                    consumed = source.count - inLeft
                    produced = target.count - outLeft
                    return error
                }
            }
        }
        for flush in [false, true] {
            var error = convert(flush: flush)
            while error == E2BIG {
                output.append(contentsOf: repeatElement(0, count: output.count))
                error = convert(flush: flush)
            }
            // EILSEQ: a byte sequence invalid in the charset; EINVAL: the body ends mid-character.
            guard error == 0 else { return .invalidBytes }
        }
        guard let text = String(validating: output[..<produced], as: UTF8.self) else { return .invalidBytes }
        return .decoded(text)
    }
}
