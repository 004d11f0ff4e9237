@testable import Cache
import Foundation
import Testing
import TestSupport

/// The one-pass canonical URL against the `URLComponents` one it stands in for.
@Suite("Cache keys: the one-pass canonical URL")
struct CacheKeyOnePassTests {
    /// `URLComponents`' canonical form, which the one-pass form must equal wherever it applies.
    private func reference(_ url: URL, ignoring: Set<String> = []) -> String? {
        URLComponents(url: url, resolvingAgainstBaseURL: true).flatMap { CacheKey.canonicalURL($0, ignoredParameters: ignoring) }
    }

    private func onePass(_ url: URL, ignoring: Set<String> = []) -> String? {
        CacheKey.onePassCanonicalURL(url.absoluteString, ignoredParameters: ignoring)
    }

    static let commonURLs = [
        "http://127.0.0.1:38797/envelope.json?entry=42",
        "https://api.example.com/list?b=2&a=1&c=3",
        "HTTPS://API.Example.COM:443/list?q=a%20b#top",
        "http://example.com", "http://example.com:80/", "http://example.com:080/x", "https://example.com:80/",
        "http://example.com:65535/p", "http://example.com/?", "http://example.com/p?&&", "http://example.com/p?a&b=&=c&a=2&a=1",
        "http://example.com/p?q=a+b&q=a%2Bb&q=a%20b", "https://e.com/p?q=%c3%a9*&s=%C3%28",
        "https://e.com/p?Z=9&a-b.c_d~e=f/g?h+i", "https://e.com/p?x=1,2;3:4@5!6$7'8(9)*",
        "https://e.com/a/b/../c/./d?x=1#frag?y=2", "https://e.com/a%2Fb/%7Euser/caf%C3%A9/~x", "https://e.com#f",
        "https://e.com?x=1", "https://sub_domain.e-x.com/p", "https://E.COM./p", "ftp://files.example.com/pub/file.txt",
        "custom-scheme.v2+x://Host.Example/p?b=1&a=2", "https://e.com/p?emoji=%F0%9F%98%BB&name=J%C3%BCrgen",
        "https://e.com/p?b=%41&a=%61&B=1&_=2&~=3&0=4", "https://e.com/p?a=1&a=0&a=2&A=9&aa=1&a%3D=1",
        "https://e.com/p?%2B=+&+=%2B&%26=%3D", "https://e.com:0/p", "https://e.com:443", "http://e.com:8080?x#y",
    ]

    /// Forms the one-pass form is not for (users, IPv6, sockets, IDN and punycode, bad ports or
    /// escapes, no `//`): where it answers anyway, it must still agree.
    static let unusualURLs = [
        "https://user:secret@e.com/p", "https://user@e.com/p", "https://@e.com/p", "http://[::1]:8080/a",
        "http://[2001:DB8::1]/a?b=1", "http+unix://%2Fvar%2Frun%2FDocker.sock/info?all=1", "http://b%C3%BCcher.example/",
        "http://xn--bcher-kva.example/p", "http://www.XN--bcher-kva.example/", "http://b\u{FC}cher.example/p?q=1",
        "https://e.com:99999/p", "https://e.com:/p", "https://e.com:123456/p", "mailto:someone@example.com", "https:e.com/p",
        "https://e.com/p?r=%zz", "https://e.com/p?t=%", "https://e.com/a%2", "https://e.com/p#a#b",
    ]

    @Test("applies to common URLs and gives URLComponents' form", arguments: commonURLs)
    func common(_ text: String) throws {
        let url = try #require(URL(string: text))
        let fast = try #require(onePass(url), "the one-pass form should apply to \(url.absoluteString)")
        #expect(fast == reference(url))
        #expect(CacheKey.canonicalURL(url) == reference(url))
    }

    @Test("agrees with URLComponents on unusual forms, or leaves them to it", arguments: unusualURLs)
    func unusual(_ text: String) {
        guard let url = URL(string: text) else { return }
        if let fast = onePass(url) { #expect(fast == reference(url)) }
        #expect(CacheKey.canonicalURL(url) == reference(url))
    }

    @Test("never takes a URL with a user, whose credentials join the key", arguments: [
        "https://user:secret@e.com/p", "https://user@e.com/p", "https://@e.com/p", "https://:pw@e.com:8443/p?a=1",
    ])
    func userInfo(_ text: String) throws {
        #expect(onePass(try #require(URL(string: text))) == nil)
    }

    @Test("ignored parameters are removed the same way", arguments: [
        ("https://e.com/p?ts=123&q=1&sig=abc&ids[]=1&ids%5B0%5D=2&ids=3", Set(["ts", "sig", "ids"])),
        ("https://e.com/p?%74s=123&q=1", ["ts"]), ("https://e.com/p?ts=1", ["ts"]), ("https://e.com/p?q=1", ["other"]),
        ("https://e.com/p?ts&ts=&q=2", ["ts"]), ("https://e.com/p?a%5Bb%5D=1&a=2&c=3", ["a"]),
    ] as [(String, Set<String>)])
    func ignored(_ text: String, _ ignoring: Set<String>) throws {
        let url = try #require(URL(string: text))
        let expected = reference(url, ignoring: ignoring)
        if let fast = onePass(url, ignoring: ignoring) { #expect(fast == expected) }
        #expect(CacheKey.canonicalURL(url, ignoredParameters: ignoring) == expected)
    }

    @Test("URLs relative to a base resolve as URLComponents resolves them", arguments: [
        ("search?q=1&a=2", "https://api.example.com/v1/"), ("../up?x=1", "https://api.example.com/v1/deep/"),
        ("//other.example.com/p", "https://api.example.com/"), ("?b=1&a=2", "https://api.example.com/v1/list"),
        ("#frag", "https://api.example.com/v1/list?z=1&y=2"),
    ])
    func relative(_ relative: String, _ base: String) throws {
        let url = try #require(URL(string: relative, relativeTo: URL(string: base)))
        #expect(CacheKey.canonicalURL(url) == reference(url))
        if let fast = onePass(url) { #expect(fast == reference(url)) }
    }

    /// Random ASCII URLs from the bytes that matter to the parser: whatever the one-pass form
    /// accepts, it must agree with `URLComponents`.
    @Test("agrees with URLComponents on random URLs")
    func randomURLs() {
        var generator = SplitMix64(seed: 0x5eed)
        let alphabet = Array("aZ09-._~!$&'()*+,;=:@/?#%2B%zz%41 [".utf8)
        var checked = 0
        for _ in 0..<3000 {
            var text = ["http://", "https://", "HTTP://", "ws://"][Int(generator.next() % 4)]
            text += ["e.com", "E.x-y.COM", "xn--bcher-kva.de", "h", "127.0.0.1:8080", "h:80", "h:443"][Int(generator.next() % 7)]
            text += "/"
            for _ in 0..<Int(generator.next() % 24) {
                text.append(Character(Unicode.Scalar(alphabet[Int(generator.next() % UInt64(alphabet.count))])))
            }
            guard let url = URL(string: text), let fast = onePass(url) else { continue }
            checked += 1
            #expect(fast == reference(url), "\(url.absoluteString)")
        }
        #expect(checked > 500)
    }
}
