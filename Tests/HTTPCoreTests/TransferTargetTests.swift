@testable import CurlTransport
import Foundation
@testable import HTTPCore
@testable import HTTPFeatures
import Testing

/// The URL facts the engine works out once per request, read on the URL string's bytes.
/// Pure: no I/O.
@Suite("Transfer target")
struct TransferTargetTests {
    private func hostKey(_ text: String, schemeLength: Int = 4) -> String? {
        var text = text
        return text.withUTF8 { TransferTarget.hostKeyText(of: $0, schemeLength: schemeLength) }
    }

    /// The per-host key is scheme, host and port, lower-cased, whatever else the URL holds.
    @Test(arguments: [
        ("http://127.0.0.1:8080/envelope.json?i=1", "http://127.0.0.1:8080"),
        ("HTTPS://Example.COM/Path", "https://example.com:-1"),
        ("http://user:p%40ss@Host:81/", "http://host:81"),
        ("http://[::1]:9000/", "http://[::1]:9000"),
        ("http://[::1]/", "http://[::1]:-1"),
        ("http://h:/", "http://h:-1"),
        ("http://h?q=a/b:1", "http://h:-1"),
        ("http://h#frag:2", "http://h:-1"),
        ("http://h", "http://h:-1"),
        ("http://xn--bcher-kva.example:443", "http://xn--bcher-kva.example:443"),
    ])
    func keyIsSchemeHostAndPort(url: String, expected: String) throws {
        let target = try TransferTarget(url: try #require(URL(string: url)))
        #expect(target.hostKey.description == expected)
        #expect(target.urlString == URL(string: url)?.absoluteString)
        #expect(target.isHTTPS == url.lowercased().hasPrefix("https:"))
    }

    /// Byte strings no valid URL produces still give an answer, never a crash: no
    /// authority, an empty host, an unclosed IPv6 literal.
    @Test(arguments: ["http:", "http:/x", "http://", "http:///path", "http://@/", "http://:80/", "http://[::1", "http://u@"])
    func noHostGivesNil(text: String) {
        #expect(hostKey(text) == nil)
    }

    @Test func spellingsOfOneHostShareOneKey() throws {
        let a = try TransferTarget(url: try #require(URL(string: "http://EXAMPLE.com:80/a")))
        let b = try TransferTarget(url: try #require(URL(string: "http://example.COM:80/b?c")))
        #expect(a.hostKey == b.hostKey)
        #expect(a.hostKey.hashValue == b.hostKey.hashValue)
        let other = try TransferTarget(url: try #require(URL(string: "http://example.com:81/a")))
        #expect(a.hostKey != other.hostKey)
    }

    /// The front ends' early check agrees with the engine's on URLs with and without a host.
    @Test(arguments: [("http://h/x", true), ("https://[::1]:9/", true), ("HTTP://User@Host", true),
                      ("http:relative", false), ("mailto:a@b.example", false), ("file:///etc/passwd", false),
                      ("relative/path", false), ("http:///only-path", false)])
    func hasHostMatchesTheEngine(url: String, hasHost: Bool) throws {
        let parsed = try #require(URL(string: url))
        #expect(TransferTarget.hasHost(parsed) == hasHost)
    }

    @Test func otherSchemesAndURLsWithoutHostAreRefused() throws {
        #expect(refusal(of: try #require(URL(string: "ftp://example.com/x"))) == .unsupportedScheme)
        #expect(refusal(of: try #require(URL(string: "http:relative"))) == .invalidURL)
        #expect(refusal(of: try #require(URL(string: "https://example.com"))) == nil)
    }

    private func refusal(of url: URL) -> NetworkError.Kind? {
        do {
            _ = try TransferTarget(url: url)
            return nil
        } catch {
            return error.kind
        }
    }
}
