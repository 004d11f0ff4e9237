import Foundation

extension HTTPResponse {
    /// The `String.Encoding` named by the `charset` of `Content-Type`, or `nil` when there is
    /// none or Foundation cannot decode it. Knows UTF-8/16/32, US-ASCII, ISO-8859-1/2,
    /// windows-1250…1254, Shift_JIS, EUC-JP and ISO-2022-JP.
    public var textEncoding: String.Encoding? {
        charset.flatMap(HTTPResponse.encoding(forCharset:))
    }

    /// The body as text, in the `charset` of `Content-Type` or else `defaultEncoding`.
    ///
    /// - Parameter defaultEncoding: used when the response names no charset or one Foundation
    ///   does not know. Default `.utf8`.
    /// - Throws: ``NetworkError/Kind/decodingFailed`` when the bytes are not valid in that encoding.
    public func text(defaultEncoding: String.Encoding = .utf8) throws(NetworkError) -> String {
        let encoding = textEncoding ?? defaultEncoding
        if body.isEmpty { return "" }
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
}
