import Digest
@testable import Cache
import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

@Suite("Cache keys")
struct CacheKeyTests {
    private func key(_ url: String, method: HTTPMethod = .get, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .none,
                     ignoring: Set<String> = []) throws -> CacheKey {
        let request = HTTPRequest(url: try #require(URL(string: url)), method: method, headers: headers, body: body)
        return try #require(CacheKey(request: request, ignoredParameters: ignoring))
    }

    @Test("the same parameters in any order give the same key")
    func parameterOrder() throws {
        let a = try key("https://api.example.com/list?b=2&a=1&c=3")
        let b = try key("https://api.example.com/list?c=3&a=1&b=2")
        #expect(a == b)
        #expect(a.fileName == b.fileName)
    }

    @Test("scheme and host case, default port, fragment and percent-encoding do not matter")
    func urlCanonicalisation() throws {
        let canonical = try key("https://api.example.com/list?q=a%20b")
        #expect(try key("HTTPS://API.Example.COM:443/list?q=a%20b#top") == canonical)
        #expect(try key("https://api.example.com/list?%71=a%20b") == canonical)
        #expect(try key("http://example.com") == key("http://example.com:80/"))
        #expect(try key("http://example.com:8080/") != key("http://example.com/"))
        #expect(CacheKey.canonicalURL(try #require(URL(string: "HTTP://Example.com:80/a?z=1&y=2#f"))) == "http://example.com/a?y=2&z=1")
    }

    @Test("unreserved characters stay as they are; anything else is percent-encoded one way")
    func componentNormalisation() throws {
        let url = try #require(URL(string: "https://e.com/p?a-b.c_d~e=f/g?h+i&Z=9"))
        #expect(CacheKey.canonicalURL(url) == "https://e.com/p?Z=9&a-b.c_d~e=f/g?h+i")
        #expect(try key("https://e.com/p?q=%7E%2d") == key("https://e.com/p?q=~-"))
        #expect(try key("https://e.com/p?q=%c3%a9") == key("https://e.com/p?q=%C3%A9"))
        #expect(CacheKey.canonicalURL(try #require(URL(string: "https://e.com/p?q=%c3%a9*"))) == "https://e.com/p?q=%C3%A9%2A")
        #expect(try key("https://e.com/p?q=%zz") != key("https://e.com/p?q=zz"))
    }

    @Test("a form-encoded space (+) and an encoded plus (%2B) stay different; IPv6 hosts keep brackets")
    func plusAndIPv6() throws {
        #expect(try key("https://e.com/s?q=a+b") != key("https://e.com/s?q=a%2Bb"))
        #expect(try key("https://e.com/s?q=a+b") == key("https://e.com/s?q=%61+b"))
        #expect(try key("https://e.com/s?q=a%20b") != key("https://e.com/s?q=a+b"))
        #expect(CacheKey.canonicalURL(try #require(URL(string: "http://[::1]:8080/a"))) == "http://[::1]:8080/a")
        #expect(CacheKey.canonicalURL(try #require(URL(string: "http://[::1]:80/a"))) == "http://[::1]/a")
    }

    @Test("repeated parameters keep their order")
    func repeatedParameters() throws {
        #expect(try key("https://e.com/?ids[]=1&ids[]=2") != key("https://e.com/?ids[]=2&ids[]=1"))
        #expect(try key("https://e.com/?ids[]=1&a=0&ids[]=2") == key("https://e.com/?a=0&ids[]=1&ids[]=2"))
    }

    @Test("different parameters, paths, methods or bodies give different keys")
    func differences() throws {
        let base = try key("https://e.com/a?x=1")
        #expect(try key("https://e.com/a?x=2") != base)
        #expect(try key("https://e.com/b?x=1") != base)
        #expect(try key("https://e.com/a?x=1", method: .post) != base)
        #expect(try key("https://e.com/a?x=1", method: .post, body: .data(Data("a=1".utf8)))
            != key("https://e.com/a?x=1", method: .post, body: .data(Data("a=2".utf8))))
    }

    @Test("credentials separate users and are never in the key text")
    func credentials() throws {
        let alice = try key("https://e.com/me", headers: ["Authorization": "Bearer alice-token"])
        let bob = try key("https://e.com/me", headers: ["Authorization": "Bearer bob-token"])
        let cookie = try key("https://e.com/me", headers: ["Cookie": "session=1"])
        let anonymous = try key("https://e.com/me")
        #expect(Set([alice, bob, cookie, anonymous]).count == 4)
        #expect(!alice.rawValue.contains("alice-token"))
        #expect(try key("https://u:p@e.com/me") != anonymous)
        // Other headers are not part of the key.
        #expect(try key("https://e.com/me", headers: ["Accept": "text/plain"]) == anonymous)
    }

    @Test("ignored parameters are left out of the query, form and JSON bodies")
    func ignoredParameters() throws {
        #expect(try key("https://e.com/a?x=1&ts=100&sig=abc", ignoring: ["ts", "sig"]) == key("https://e.com/a?x=1"))
        #expect(try key("https://e.com/a?x=1&ts=100") != key("https://e.com/a?x=1&ts=200"))
        #expect(try key("https://e.com/a?x=1&ts[]=1", ignoring: ["ts"]) == key("https://e.com/a?x=1"))

        var one = HTTPRequest(url: try #require(URL(string: "https://e.com/form")), method: .post)
        try ParameterEncoding.form.encode(["user": .string("a"), "ts": .int(1)], into: &one)
        var two = one
        try ParameterEncoding.form.encode(["user": .string("a"), "ts": .int(2)], into: &two)
        #expect(CacheKey(request: one) != CacheKey(request: two))
        #expect(CacheKey(request: one, ignoredParameters: ["ts"]) == CacheKey(request: two, ignoredParameters: ["ts"]))

        var json1 = HTTPRequest(url: try #require(URL(string: "https://e.com/json")), method: .post)
        try ParameterEncoding.json.encode(["user": .string("a"), "nonce": .int(1), "n": .double(1.5)], into: &json1)
        var json2 = json1
        try ParameterEncoding.json.encode(["nonce": .int(99), "n": .double(1.5), "user": .string("a")], into: &json2)
        #expect(CacheKey(request: json1) != CacheKey(request: json2))
        #expect(CacheKey(request: json1, ignoredParameters: ["nonce"]) == CacheKey(request: json2, ignoredParameters: ["nonce"]))
    }

    @Test("form and JSON bodies from the same parameters give the same key")
    func encodedParameters() throws {
        var one = HTTPRequest(url: try #require(URL(string: "https://e.com/form")), method: .post)
        try ParameterEncoding.json.encode(["b": .int(1), "a": .array([.int(1), .int(2)])], into: &one)
        var two = HTTPRequest(url: try #require(URL(string: "https://e.com/form")), method: .post)
        try ParameterEncoding.json.encode(["a": .array([.int(1), .int(2)]), "b": .int(1)], into: &two)
        #expect(CacheKey(request: one) == CacheKey(request: two))
    }

    @Test("the key starts with the version tag and the file name is its SHA-256")
    func format() throws {
        let k = try key("https://e.com/")
        #expect(k.rawValue.hasPrefix(CacheKey.version + "\n"))
        #expect(k.fileName.count == 64)
        #expect(k.fileName.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(CacheKey(rawValue: k.rawValue) == k)
    }

    @Test("multipart bodies and downloads have no key")
    func uncacheable() throws {
        let url = try #require(URL(string: "https://e.com/upload"))
        #expect(CacheKey(request: HTTPRequest(url: url, method: .post, body: .multipart(MultipartFormData()))) == nil)
        var download = HTTPRequest(url: url)
        download.download = DownloadOptions(destination: URL(fileURLWithPath: "/nonexistent/file"))
        #expect(CacheKey(request: download) == nil)
        #expect(CacheKey(request: HTTPRequest(url: url, method: .post, body: .file(URL(fileURLWithPath: "/nonexistent/x")))) == nil)
    }

    /// Keys name the files on disk, so entries stored by this version stay reachable only while
    /// the key text is the same: the cache's canonical encoding is its own, whatever the
    /// parameter encoder does.
    @Test("the key text of a fixed request is pinned")
    func pinnedKeyText() throws {
        let url = try #require(URL(string: "https://E.com:443/p%7E/a?sp=a+b&q=%c3%a9&ids%5B%5D=2&plus=%2B&s=/?"))
        var request = HTTPRequest(url: url, method: .post)
        request.headers["X-Auth-Token"] = "secret"
        #expect(CacheKey(request: request)?.rawValue == [
            "chain-cache-key/1", "POST", "https://e.com/p%7E/a?ids%5B%5D=2&plus=%2B&q=%C3%A9&s=/?&sp=a+b",
            "body:none", "credentials:" + SHA256.hexDigest("x-auth-token:secret"),
        ].joined(separator: "\n"))
    }
}
