import AFStyle
import Chain
@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// Text in every charset the system can decode is decoded, by name or alias; only bytes that
/// are invalid in a known charset are `decodingFailed`. The bytes are made by Python's codecs
/// (`/parse/charset` in `Tests/HostilePeer/scenarios_parse.py`), which also sends the text it
/// encoded, as percent-encoded UTF-8, in `X-Expected`.
@Suite("Charset decoding", .timeLimit(.minutes(1)))
struct CharsetDecodingTests {
    /// (the name in `Content-Type`, the Python codec that makes the bytes).
    static let charsets: [(String, String)] = [
        ("gbk", "gbk"), ("GBK", "gbk"), ("gb2312", "gbk"), ("gb18030", "gb18030"), ("big5", "big5"),
        ("shift_jis", "shift_jis"), ("sjis", "shift_jis"), ("x-sjis", "shift_jis"), ("euc-jp", "euc_jp"),
        ("iso-2022-jp", "iso2022_jp"), ("euc-kr", "euc_kr"), ("ks_c_5601-1987", "euc_kr"), ("koi8-r", "koi8_r"),
        ("koi8-u", "koi8_u"), ("windows-1250", "cp1250"), ("windows-1251", "cp1251"), ("windows-1252", "cp1252"),
        ("windows-1253", "cp1253"), ("windows-1254", "cp1254"), ("windows-1255", "cp1255"), ("windows-1256", "cp1256"),
        ("windows-1257", "cp1257"), ("windows-1258", "cp1258"), ("cp1251", "cp1251"), ("windows-874", "cp874"),
        ("iso-8859-1", "latin_1"), ("latin1", "latin_1"), ("iso-8859-2", "iso8859_2"), ("iso-8859-4", "iso8859_4"),
        ("iso-8859-5", "iso8859_5"), ("iso-8859-6", "iso8859_6"), ("iso-8859-7", "iso8859_7"), ("iso-8859-8", "iso8859_8"),
        ("iso-8859-9", "iso8859_9"), ("iso-8859-13", "iso8859_13"), ("iso-8859-15", "iso8859_15"),
        ("iso-8859-16", "iso8859_16"), ("\"utf-16\"", "utf-16"), ("utf-16le", "utf-16-le"), ("utf-8", "utf-8"),
        ("us-ascii", "ascii"),
    ]

    @Test(arguments: charsets)
    func textInEachCharsetIsDecoded(name: String, codec: String) async throws {
        let query = "name=\(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? name)&codec=\(codec)"
        let response = try await ParsePeer.result("charset?\(query)").get()
        let expected = try #require(response.headers["X-Expected"]?.removingPercentEncoding)
        #expect(throws: Never.self) { try response.text() }
        #expect((try? response.text()) == expected, "\(name)")
    }

    /// Chain's `string()` and AFStyle's string serializer decode through `text()`.
    @Test func bothFrontEndsDecodeGBK() async throws {
        let url = try await ParsePeer.url("charset?name=gbk&codec=gbk").absoluteString
        let configuration = chainConfiguration(queue: DispatchQueue(label: "parse-charset"))
        let text = try await Request.url(url).configuration(configuration).string()
        #expect(text == "中文，简体字：汉语")
        let response = try await ParsePeer.result("charset?name=gbk&codec=gbk").get()
        let object = try HTTPResponseSerializer.string.responseObject(for: response)
        #expect(object as? String == "中文，简体字：汉语")
    }

    @Test(arguments: ["gbk", "shift_jis", "big5", "euc-kr"])
    func bytesInvalidInAKnownCharsetFailDecoding(name: String) async throws {
        let response = try await ParsePeer.result("invalid-in-charset?name=\(name)").get()
        #expect(throws: NetworkError.self) { try response.text() }
        #expect((try? response.text()) == nil)
    }

    /// A charset no decoder knows falls back on the default encoding, as documented.
    @Test func anUnknownCharsetUsesTheDefaultEncoding() throws {
        var headers = HTTPHeaders()
        headers["Content-Type"] = "text/plain; charset=no-such-charset"
        let response = HTTPResponse(statusCode: 200, headers: headers, body: Data("plain".utf8),
                                    url: URL(fileURLWithPath: "/"))
        #expect(try response.text() == "plain")
        #expect(response.textEncoding == nil)
    }

    /// iconv flags (`//IGNORE`, `//TRANSLIT`) and other non-token names are no charset names.
    @Test(arguments: ["utf-8//ignore", "gbk//translit", "../gbk", "g b k", ""])
    func namesThatAreNoCharsetTokensAreNotPassedToIconv(name: String) {
        #expect(HTTPResponse.iconvName(forCharset: name) == nil)
    }
}
