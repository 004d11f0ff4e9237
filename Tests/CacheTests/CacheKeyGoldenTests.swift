@testable import Cache
import Foundation
import HTTPCore
import Testing

/// Keys name files on disk: a faster way of building them must give the very bytes the
/// stored entries were written under. The expected file names were produced by the key code
/// that parsed every URL with `URLComponents` (before the one-pass canonical form).
@Suite("Cache keys stay byte-identical")
struct CacheKeyGoldenTests {
    /// A request of the corpus: a URL (absolute, or relative to `base`) and what else shapes the key.
    struct Case: Sendable, CustomTestStringConvertible {
        var url: String
        var base: String? = nil
        var method: HTTPMethod = .get
        var headers: HTTPHeaders = HTTPHeaders()
        var body: HTTPBody = .none
        var ignoring: Set<String> = []
        var keyHeaders: Set<String> = []
        var testDescription: String { "\(method.rawValue) \(url)" + (base.map { " against \($0)" } ?? "") }

        func request() throws -> HTTPRequest {
            let baseURL = try base.map { try #require(URL(string: $0)) }
            let url = try #require(URL(string: self.url, relativeTo: baseURL))
            return HTTPRequest(url: url, method: method, headers: headers, body: body)
        }
    }

    static let corpus: [Case] = [
        Case(url: "http://127.0.0.1:38797/envelope.json?entry=42"),
        Case(url: "https://api.example.com/list?b=2&a=1&c=3"),
        Case(url: "https://api.example.com/list?c=3&a=1&b=2"),
        Case(url: "HTTPS://API.Example.COM:443/list?q=a%20b#top"),
        Case(url: "https://api.example.com/list?%71=a%20b"),
        Case(url: "http://example.com"),
        Case(url: "http://example.com:80/"),
        Case(url: "http://example.com:080/x"),
        Case(url: "http://example.com:8080"),
        Case(url: "https://example.com:80/"),
        Case(url: "http://example.com:443/"),
        Case(url: "http://example.com:65535/p"),
        Case(url: "http://example.com/?"),
        Case(url: "http://example.com/p?&&"),
        Case(url: "http://example.com/p?a&b=&=c&a=2&a=1"),
        Case(url: "http://example.com/p?ids[]=2&ids[]=1&ids%5B%5D=3"),
        Case(url: "http://example.com/p?q=a+b&q=a%2Bb&q=a%20b"),
        Case(url: "https://e.com/p?q=%c3%a9*&r=%zz&s=%C3%28&t=%"),
        Case(url: "https://e.com/p?Z=9&a-b.c_d~e=f/g?h+i"),
        Case(url: "https://e.com/p?x=1,2;3:4@5!6$7'8(9)*"),
        Case(url: "https://e.com/a/b/../c/./d?x=1#frag?y=2"),
        Case(url: "https://e.com/a%2Fb/%7Euser/caf%C3%A9/~x"),
        Case(url: "https://e.com/p#only-fragment"),
        Case(url: "https://e.com#f"),
        Case(url: "https://e.com?x=1"),
        Case(url: "https://user:secret@e.com/p"),
        Case(url: "https://user@e.com/p"),
        Case(url: "https://:pw@e.com/p"),
        Case(url: "https://@e.com/p"),
        Case(url: "http://[::1]:8080/a"),
        Case(url: "http://[::1]:80/a"),
        Case(url: "http://[2001:DB8::1]/a?b=1"),
        Case(url: "http://b\u{FC}cher.example/p?q=\u{E9}"),
        Case(url: "http://xn--bcher-kva.example/p"),
        Case(url: "https://e.com/path with space?q=a b"),
        Case(url: "https://e.com/p?emoji=%F0%9F%98%BB&name=J%C3%BCrgen"),
        Case(url: "https://sub_domain.e-x.com/p"),
        Case(url: "https://E.COM./p"),
        Case(url: "http+unix://%2Fvar%2Frun%2FDocker.sock/info?all=1"),
        Case(url: "HTTP+UNIX://%2Ftmp%2Fs.sock/"),
        Case(url: "ftp://files.example.com/pub/file.txt"),
        Case(url: "ws://e.com:80/socket"),
        Case(url: "custom-scheme.v2+x://Host.Example/p?b=1&a=2"),
        Case(url: "https://e.com/p?ts=123&q=1&sig=abc&ids[]=1&ids[0]=2", ignoring: ["ts", "sig", "ids"]),
        Case(url: "https://e.com/p?%74s=123&q=1", ignoring: ["ts"]),
        Case(url: "https://e.com/p?ts=1", ignoring: ["ts"]),
        Case(url: "https://e.com/p?q=1", ignoring: ["other"]),
        Case(url: "search?q=1&a=2", base: "https://api.example.com/v1/"),
        Case(url: "../up?x=1", base: "https://api.example.com/v1/deep/"),
        Case(url: "//other.example.com/p", base: "https://api.example.com/"),
        Case(url: "https://e.com/p", method: .post, body: .data(Data("b=2&a=1".utf8))),
        Case(url: "https://e.com/p", method: .post, headers: ["Content-Type": "application/x-www-form-urlencoded"],
             body: .data(Data("ts=9&b=2&a=1".utf8)), ignoring: ["ts"]),
        Case(url: "https://e.com/p", method: .put, headers: ["Content-Type": "application/json; charset=utf-8"],
             body: .data(Data(#"{"ts":1,"b":[1,2],"a":"x"}"#.utf8)), ignoring: ["ts"]),
        Case(url: "https://e.com/p", method: .head),
        Case(url: "https://e.com/p", method: .delete),
        Case(url: "https://e.com/p", headers: ["Authorization": "Bearer abc", "X-Api-Key": "k", "Accept": "a"]),
        Case(url: "https://e.com/p", headers: ["cookie": "a=1", "Cookie": "b=2", "X-Session-Id": "s"]),
        Case(url: "https://e.com/p", headers: ["Accept-Language": "de", "X-Tenant": "t1"], keyHeaders: ["accept-language", "X-TENANT"]),
        Case(url: "https://user:pw@e.com/p?b=1&a=2", headers: ["Authorization": "Basic x"]),
    ]

    @Test("every key of the corpus has the text and the file name it had", arguments: corpus.indices)
    func unchanged(_ index: Int) throws {
        let test = CacheKeyGoldenTests.corpus[index]
        let expected = CacheKeyGoldenTests.expected[index]
        let key = try #require(CacheKey(request: try test.request(), ignoredParameters: test.ignoring, keyHeaders: test.keyHeaders))
        #expect(key.rawValue == expected.text)
        #expect(key.fileName == expected.fileName)
    }

    @Test("a request over a Unix socket ends its key text with the socket's path")
    func socket() throws {
        var request = HTTPRequest(url: try #require(URL(string: "http://localhost/info?b=2&a=1")))
        request.unixSocketPath = "/var/run/App.sock"
        let key = try #require(CacheKey(request: request))
        #expect(key.rawValue == "chain-cache-key/1\nGET\nhttp://localhost/info?a=1&b=2\nbody:none\ncredentials:none\nsocket:/var/run/App.sock")
        // SHA-256 of that text, as the lines joined by the former code were hashed.
        #expect(key.fileName == "f15f8d77e98c247c6f2c72660eec5d4ab18f5075b4ff822df2365ca20c1fdff8")
    }

    @Test("the corpus and its expectations line up")
    func corpusComplete() {
        #expect(CacheKeyGoldenTests.corpus.count == CacheKeyGoldenTests.expected.count)
    }

    /// The key text and file name of each corpus entry, in order, as the `URLComponents`-based code made them.
    static let expected: [(text: String, fileName: String)] = [
        ("chain-cache-key/1\nGET\nhttp://127.0.0.1:38797/envelope.json?entry=42\nbody:none\ncredentials:none",
         "4f67765f3cb7923f272e032e70206ed0f9630d4024098ad6026993cf4de9cc5e"),
        ("chain-cache-key/1\nGET\nhttps://api.example.com/list?a=1&b=2&c=3\nbody:none\ncredentials:none",
         "ea049680f27fcd3adae608e580f0f7724699dcfd55fe57d47990a4fa70826536"),
        ("chain-cache-key/1\nGET\nhttps://api.example.com/list?a=1&b=2&c=3\nbody:none\ncredentials:none",
         "ea049680f27fcd3adae608e580f0f7724699dcfd55fe57d47990a4fa70826536"),
        ("chain-cache-key/1\nGET\nhttps://api.example.com/list?q=a%20b\nbody:none\ncredentials:none",
         "1b7a32d35bb283acdc1853618c68b0b92db4af9bae182e11766fffcfb431366a"),
        ("chain-cache-key/1\nGET\nhttps://api.example.com/list?q=a%20b\nbody:none\ncredentials:none",
         "1b7a32d35bb283acdc1853618c68b0b92db4af9bae182e11766fffcfb431366a"),
        ("chain-cache-key/1\nGET\nhttp://example.com/\nbody:none\ncredentials:none",
         "420c13f15bb5d625ab4faf70242107157636ad9514fb9b1a7c706a66fd729e80"),
        ("chain-cache-key/1\nGET\nhttp://example.com/\nbody:none\ncredentials:none",
         "420c13f15bb5d625ab4faf70242107157636ad9514fb9b1a7c706a66fd729e80"),
        ("chain-cache-key/1\nGET\nhttp://example.com/x\nbody:none\ncredentials:none",
         "6c469f45966e757b1126501b06755e3f459d158f3254a31ce924b94b30a51566"),
        ("chain-cache-key/1\nGET\nhttp://example.com:8080/\nbody:none\ncredentials:none",
         "76974b3bebddced13a8d3b3f0f80d6d892212ec0df2b2c29b0db9c0d50fd8317"),
        ("chain-cache-key/1\nGET\nhttps://example.com:80/\nbody:none\ncredentials:none",
         "4dfbbf1f0a79d97199e4eb3f39af94f2605fb32ce086e8a333187897f31df31c"),
        ("chain-cache-key/1\nGET\nhttp://example.com:443/\nbody:none\ncredentials:none",
         "d300c8942236a6e763c4ab360325da10bc35e3dbcd6a80888697ce12d290e4b7"),
        ("chain-cache-key/1\nGET\nhttp://example.com:65535/p\nbody:none\ncredentials:none",
         "523536503c3c2071b05f4dc0f9089aafa4c1cd1c88bc39bc08d079119da02848"),
        ("chain-cache-key/1\nGET\nhttp://example.com/\nbody:none\ncredentials:none",
         "420c13f15bb5d625ab4faf70242107157636ad9514fb9b1a7c706a66fd729e80"),
        ("chain-cache-key/1\nGET\nhttp://example.com/p\nbody:none\ncredentials:none",
         "fd065ceb46523b126b8456ee2420daeeaf717891a4d67f8843f757f4d4189ba6"),
        ("chain-cache-key/1\nGET\nhttp://example.com/p?=c&a&a=2&a=1&b=\nbody:none\ncredentials:none",
         "0cbf149b10aade535132a828a295240fe84fe7acb2f8601fcea24a6a5376a842"),
        ("chain-cache-key/1\nGET\nhttp://example.com/p?ids%255B%255D=3&ids%5B%5D=2&ids%5B%5D=1\nbody:none\ncredentials:none",
         "10c07fd9776795301ffe0b0627d5a5ef2356bb38a0f5273fce9dd63600116a9f"),
        ("chain-cache-key/1\nGET\nhttp://example.com/p?q=a+b&q=a%2Bb&q=a%20b\nbody:none\ncredentials:none",
         "0affa6c9cffd4726b46fbf7ffec40bd0ae595e45ec98d58b8d443dc5a6ebb8f9"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p?q=%25c3%25a9%2A&r=%25zz&s=%25C3%2528&t=%25\nbody:none\ncredentials:none",
         "f350c9d1dba3bb8b70d57744548aac5706d265bc097cede6331bed4a4adaad2d"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p?Z=9&a-b.c_d~e=f/g?h+i\nbody:none\ncredentials:none",
         "f8d664634dee80f896a9511a55753fb1f78bcdbf78d8382e642875f78452d610"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p?x=1%2C2%3B3%3A4%405%216%247%278%289%29%2A\nbody:none\ncredentials:none",
         "bfd8e6c68b1836449b28d9d63e9d7124a080d2b6f68642badec64818380a7387"),
        ("chain-cache-key/1\nGET\nhttps://e.com/a/b/../c/./d?x=1\nbody:none\ncredentials:none",
         "1b665d8c6facaecd61bfd788760efa67ab7c75a8febd5ee06b98ef618c1fa6ff"),
        ("chain-cache-key/1\nGET\nhttps://e.com/a%2Fb/%7Euser/caf%C3%A9/~x\nbody:none\ncredentials:none",
         "bece1c5a4813df84df531408408c864313e7b669b7f8a623e5af2f785be2dbe8"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p\nbody:none\ncredentials:none",
         "a800f8e5e2202006027146a2ed20e71972ad9976484f5e92a0301664a21ac203"),
        ("chain-cache-key/1\nGET\nhttps://e.com/\nbody:none\ncredentials:none",
         "c01a17baf301549f677809199ba4fa8c1a345ad499a8df15eba40055344aa714"),
        ("chain-cache-key/1\nGET\nhttps://e.com/?x=1\nbody:none\ncredentials:none",
         "da012b655b9cd306d70b03983fa0f6b8c7624fadbb7ac8068d44556dc341fbf7"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p\nbody:none\ncredentials:51c73ff4495a1bdbc6d6af1c573acbcc54ac3804331cba1de07152827de7ed9d",
         "b647632398dfead386feac456ec091aca7f7a0e4aef9a83ab45dc8a8c39effa0"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p\nbody:none\ncredentials:61681bcec5f4b6816db173e54ccbcf2ff3252f9bd3f918b9613a09b96a1a00c3",
         "7add42ba26c48b8c683110d92b892f6dd1252bd4e53b387c45c3d686abc5dee1"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p\nbody:none\ncredentials:9bb905dd460929aaf761f4cbdaff69ce9a7b019579f53a3f5a524f8a0c8c693f",
         "ada386730b29873a06b056cd8eccd4f7b7b53ed86164526fb3eeb0acd2ead3dc"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p\nbody:none\ncredentials:3ad60bd34e3bb3819d117c2db3a130e6068b8797103541d1ff80a40a6468ddd9",
         "6f5e3e00169d619a5cb1823acbb5a0509a9bd5d0ba1bbff825a93095b8a0f86e"),
        ("chain-cache-key/1\nGET\nhttp://[::1]:8080/a\nbody:none\ncredentials:none",
         "e8aee70d74d2f8d631af5e6768a0e1aa95e7c18db6fe7dc055f1c3831b1f2866"),
        ("chain-cache-key/1\nGET\nhttp://[::1]/a\nbody:none\ncredentials:none",
         "e4fc617ee2e8b126f34fc2497643e8a4ae72b5512137edd5b6c004b158eaaf4c"),
        ("chain-cache-key/1\nGET\nhttp://[2001:db8::1]/a?b=1\nbody:none\ncredentials:none",
         "32f4c2caf71c94e4c0a864e21eabcc9939787e730cae30d94736d3e6e0a80e13"),
        ("chain-cache-key/1\nGET\nhttp://b%c3%bccher.example/p?q=%C3%A9\nbody:none\ncredentials:none",
         "729e54ee83a68a864a5608b5e1100cc1c72715e3f36351ddb6c1751a926989f6"),
        ("chain-cache-key/1\nGET\nhttp://b%c3%bccher.example/p\nbody:none\ncredentials:none",
         "0c085e1118b0e6caa39abf6ce3cf438c67f169ecbf401ba597b11dae921a67cc"),
        ("chain-cache-key/1\nGET\nhttps://e.com/path%20with%20space?q=a%20b\nbody:none\ncredentials:none",
         "e00c2bb8d68dab1402ec39114c3c1ef577fdc2f50e8e5011c8783ab4c41f0a05"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p?emoji=%F0%9F%98%BB&name=J%C3%BCrgen\nbody:none\ncredentials:none",
         "2dfdf1d2fe61042b89ea8e40a0b8e77b46a8e33868e078098ff09c3f50b79a91"),
        ("chain-cache-key/1\nGET\nhttps://sub_domain.e-x.com/p\nbody:none\ncredentials:none",
         "3a9017d27fe6e2917fcfe92a98dce9fd0a2096b1b040f0e132bd022d632f6f19"),
        ("chain-cache-key/1\nGET\nhttps://e.com./p\nbody:none\ncredentials:none",
         "d53e85163bb8c22396e8e9ecca519fc44e908546dbd2608512b61d3ac7439e41"),
        ("chain-cache-key/1\nGET\nhttp+unix://%2Fvar%2Frun%2FDocker.sock/info?all=1\nbody:none\ncredentials:none",
         "b6ac1233e0d45f022db49b396fe4365094580f072e91ebd1219a504ef8550cea"),
        ("chain-cache-key/1\nGET\nhttp+unix://%2Ftmp%2Fs.sock/\nbody:none\ncredentials:none",
         "7c479533cd1f72846739b530f81fdbe651751f99be6bfdae740383fdc667c857"),
        ("chain-cache-key/1\nGET\nftp://files.example.com/pub/file.txt\nbody:none\ncredentials:none",
         "97d1fb91e0eb0d11c60e51c0d4bf2aaa3bc09315e4d8f89732a2303f1f1c0886"),
        ("chain-cache-key/1\nGET\nws://e.com:80/socket\nbody:none\ncredentials:none",
         "cd4bb2b7a94c27fe424f7cd26526da3324a85b507d6c7556e3d4d247bca5b62f"),
        ("chain-cache-key/1\nGET\ncustom-scheme.v2+x://host.example/p?a=2&b=1\nbody:none\ncredentials:none",
         "f0d9b521220e165248cc94eceaee95c4fc931cc64606d5af6b25d44e3530de35"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p?q=1\nbody:none\ncredentials:none",
         "bab26ad6ba93f99aa5238e93fc3f172dd21f3a642fa2f6266d81bd0876a9670f"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p?q=1\nbody:none\ncredentials:none",
         "bab26ad6ba93f99aa5238e93fc3f172dd21f3a642fa2f6266d81bd0876a9670f"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p\nbody:none\ncredentials:none",
         "a800f8e5e2202006027146a2ed20e71972ad9976484f5e92a0301664a21ac203"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p?q=1\nbody:none\ncredentials:none",
         "bab26ad6ba93f99aa5238e93fc3f172dd21f3a642fa2f6266d81bd0876a9670f"),
        ("chain-cache-key/1\nGET\nhttps://api.example.com/v1/search?a=2&q=1\nbody:none\ncredentials:none",
         "7a083a5801d9172624ce4d26ae817324809ac2d263df18c8ea722010847f242e"),
        ("chain-cache-key/1\nGET\nhttps://api.example.com/v1/up?x=1\nbody:none\ncredentials:none",
         "9bd3e0bc55559a5b50c3d5dc0c08477a393f097ab3103ec669ff388f11bc6ca4"),
        ("chain-cache-key/1\nGET\nhttps://other.example.com/p\nbody:none\ncredentials:none",
         "3f6f16989e863965f95d93685693a3d443315e190532fb0818a47e509d342f49"),
        ("chain-cache-key/1\nPOST\nhttps://e.com/p\nbody:a746b90cddac3e075db2f0c7b65aa5d09a354bef1562352d9dab3156d1142834\ncredentials:none",
         "0a22c68e7a31b56cc43ef7fa7ca589e9c60e9fe9fc1099fa313f31395c702e20"),
        ("chain-cache-key/1\nPOST\nhttps://e.com/p\nbody:8e85be58c1c372ac29fe7bfa80d8ddcbd04a4032c7b51c1c026d67c55b1ab23f\ncredentials:none",
         "7a78bccb8d8a1b279b093863c2a0f2a12e63f7f215e7c76762b99be457f59a5c"),
        ("chain-cache-key/1\nPUT\nhttps://e.com/p\nbody:721ef82f2d6c0997bffb7a8ab3f40f8fb45b0b52ce2af3afa6b0f05efbdc317f\ncredentials:none",
         "b37f9029c00b327fb7f3a30df0002ffceabc7a135c47ace7c87005fcef54989d"),
        ("chain-cache-key/1\nHEAD\nhttps://e.com/p\nbody:none\ncredentials:none",
         "9e26a6e0dac13db146dc36101347976a731d91a09f951d9ed0833e65202790b3"),
        ("chain-cache-key/1\nDELETE\nhttps://e.com/p\nbody:none\ncredentials:none",
         "85600600ba8e46924e7a3790440ca7260a70eb2d3e6499c0225e20999ea7f7cc"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p\nbody:none\ncredentials:7d1802c2570b04ae108e4b3179e943640bfee76cc6073821f02eae3de048ea3d",
         "8f18b0ab1d5c5ad22b7a4a6da3d509da334cc262803a149f956b8869d3efbcaa"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p\nbody:none\ncredentials:67cc2f4d4797a74138ac3de561e6e72449816ef9397521acfee53bdcf35dd36f",
         "68b8130d2b95868d28f8ac6318f1988403bd7a171e8b93255e868b56f1b45901"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p\nbody:none\ncredentials:ab28044a9f411b23170136ad42c4916e7c263a0a874cc7f51833c4b0d4c1735a",
         "f869702eb831b625d47d50b3d9353c0fec4c1ec46c7f72cb981b430496186313"),
        ("chain-cache-key/1\nGET\nhttps://e.com/p?a=2&b=1\nbody:none\ncredentials:a55e6a53887a0e6e14a2e525a035e803f8325bbe79c2d82410784fa3c4fffab8",
         "48791bb7cfe14753a9c3c71f91e10d41b5df8cf6047bf8eb0d38b1bdfa02c253"),
    ]
}
