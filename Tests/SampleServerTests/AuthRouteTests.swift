import Digest
import Foundation
@testable import SampleServer
import Testing

/// The authentication routes, driven byte by byte: the challenges, and the answers to right
/// and wrong credentials computed here independently of the server's code.
@Suite("SampleServer authentication routes")
struct AuthRouteTests {
    @Test("basic-auth: the right user and password, a wrong one, none")
    func basic() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let good = Data("me:pw".utf8).base64EncodedString()
        let ok = try client.request("GET", "/basic-auth/me/pw", headers: ["Authorization: Basic \(good)"])
        #expect(ok.status == 200)
        #expect(ok.json == ["authenticated": true, "user": "me"])

        let bad = Data("me:nope".utf8).base64EncodedString()
        let refused = try client.request("GET", "/basic-auth/me/pw", headers: ["Authorization: Basic \(bad)"])
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate") == "Basic realm=\"Fake Realm\"")
        #expect(try client.request("GET", "/basic-auth/me/pw").status == 401)
        #expect(try client.request("GET", "/basic-auth/me/pw", headers: ["Authorization: Basic !!!"]).status == 401)
    }

    @Test("digest-auth: RFC 7616 response with MD5 and SHA-256, fresh nonces, wrong password", arguments: [
        ("/digest-auth/auth/me/pw", "MD5"), ("/digest-auth/auth/me/pw/SHA-256", "SHA-256"), ("/digest-auth/auth/me/pw/MD5", "MD5"),
    ])
    func digest(path: String, algorithm: String) throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let first = try client.request("GET", path)
        #expect(first.status == 401)
        let challenge = try #require(first.header("WWW-Authenticate"))
        let parameters = try #require(AuthParameters.parse(challenge))
        #expect(parameters.scheme == "digest")
        #expect(parameters.parameters["algorithm"] == algorithm)
        #expect(parameters.parameters["qop"] == "auth")
        #expect(parameters.parameters["realm"] == "Fake Realm")
        let nonce = try #require(parameters.parameters["nonce"])

        let hash: (String) -> String = { algorithm == "MD5" ? MD5.hexDigest($0) : SHA256.hexDigest($0) }
        func authorization(password: String, nonce: String) -> String {
            let ha1 = hash("me:Fake Realm:\(password)"), ha2 = hash("GET:\(path)")
            let response = hash("\(ha1):\(nonce):00000001:c0ffee:auth:\(ha2)")
            return "Authorization: Digest username=\"me\", realm=\"Fake Realm\", nonce=\"\(nonce)\", uri=\"\(path)\", "
                + "cnonce=\"c0ffee\", nc=00000001, qop=auth, response=\"\(response)\", algorithm=\(algorithm)"
        }
        let ok = try client.request("GET", path, headers: [authorization(password: "pw", nonce: nonce)])
        #expect(ok.status == 200)
        #expect(ok.json == ["authenticated": true, "user": "me"])

        let wrong = try client.request("GET", path, headers: [authorization(password: "nope", nonce: nonce)])
        #expect(wrong.status == 401)
        let fresh = try #require(wrong.header("WWW-Authenticate").flatMap(AuthParameters.parse)?.parameters["nonce"])
        #expect(fresh != nonce)
        // A nonce the server never issued is refused even with the right password.
        #expect(try client.request("GET", path, headers: [authorization(password: "pw", nonce: "feedface")]).status == 401)
    }

    @Test("digest-auth: unsupported qop or algorithm is 400; also-basic lists Basic first")
    func digestOptions() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        #expect(try client.request("GET", "/digest-auth/auth-int/me/pw").status == 400)
        #expect(try client.request("GET", "/digest-auth/auth/me/pw/SHA-512").status == 400)
        let both = try client.request("GET", "/digest-auth/auth/me/pw?also-basic=true")
        #expect(both.headers.filter { $0.name == "WWW-Authenticate" }.map { $0.value.prefix(6) } == ["Basic ", "Digest"])
        let basic = Data("me:pw".utf8).base64EncodedString()
        #expect(try client.request("GET", "/digest-auth/auth/me/pw?also-basic=true",
                                   headers: ["Authorization: Basic \(basic)"]).status == 401)
    }

    @Test("NTLM: MS-NLMP 4.2.4's NTLMv2 vector verifies, a changed byte does not")
    func ntlmVector() throws {
        let challenge: [UInt8] = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]
        let avPairs: [UInt8] = [0x02, 0x00, 0x0c, 0x00] + NTLMTestMessages.utf16LE("Domain")
            + [0x01, 0x00, 0x0c, 0x00] + NTLMTestMessages.utf16LE("Server") + [0, 0, 0, 0]
        let blob: [UInt8] = [0x01, 0x01, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 8)
            + [UInt8](repeating: 0xaa, count: 8) + [0, 0, 0, 0] + avPairs + [0, 0, 0, 0]
        let proof = hexBytes("68cd0ab851e51c96aabc927bebef6a1c")
        let message = NTLMHandshake.Authenticate(user: "User", domain: "Domain", ntResponse: proof + blob)
        #expect(NTLMHandshake.verify(message, user: "user", password: "Password", challenge: challenge))
        #expect(!NTLMHandshake.verify(message, user: "user", password: "password", challenge: challenge))
        #expect(!NTLMHandshake.verify(message, user: "other", password: "Password", challenge: challenge))
        var tampered = message
        tampered.ntResponse[40] ^= 1
        #expect(!NTLMHandshake.verify(tampered, user: "user", password: "Password", challenge: challenge))
    }

    @Test("NTLM: the three messages on one connection; the connection stays authenticated")
    func ntlmHandshake() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let bare = try client.request("GET", "/ntlm/me/pw")
        #expect(bare.status == 401)
        #expect(bare.header("WWW-Authenticate") == "NTLM")

        let type2 = try client.request("GET", "/ntlm/me/pw", headers: ["Authorization: NTLM \(NTLMTestMessages.negotiate)"])
        #expect(type2.status == 401)
        let challenge = try NTLMTestMessages.serverChallenge(from: type2.header("WWW-Authenticate"))
        let authenticate = NTLMTestMessages.authenticate(user: "me", domain: "", password: "pw", challenge: challenge.challenge,
                                                         targetInfo: challenge.targetInfo)
        let ok = try client.request("GET", "/ntlm/me/pw", headers: ["Authorization: NTLM \(authenticate)"])
        #expect(ok.status == 200)
        #expect(ok.json == ["authenticated": true, "user": "me"])
        #expect(try client.request("GET", "/ntlm/me/pw").status == 200)

        // Another connection has not authenticated, and a type 3 without its type 2 is refused.
        let other = try RawClient(port: server.port)
        #expect(try other.request("GET", "/ntlm/me/pw").status == 401)
        #expect(try other.request("GET", "/ntlm/me/pw", headers: ["Authorization: NTLM \(authenticate)"]).status == 401)
    }

    @Test("NTLM: a wrong password ends as 401 with a bare NTLM challenge; garbage too")
    func ntlmRefused() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let type2 = try client.request("GET", "/ntlm/me/pw", headers: ["Authorization: NTLM \(NTLMTestMessages.negotiate)"])
        let challenge = try NTLMTestMessages.serverChallenge(from: type2.header("WWW-Authenticate"))
        let wrong = NTLMTestMessages.authenticate(user: "me", domain: "", password: "nope", challenge: challenge.challenge,
                                                  targetInfo: challenge.targetInfo)
        let refused = try client.request("GET", "/ntlm/me/pw", headers: ["Authorization: NTLM \(wrong)"])
        #expect(refused.status == 401)
        #expect(refused.header("WWW-Authenticate") == "NTLM")
        #expect(try client.request("GET", "/ntlm/me/pw").status == 401)
        for junk in ["NTLM", "NTLM %%%", "NTLM " + Data("NTLMSSP\0".utf8).base64EncodedString(),
                     "NTLM " + Data(Array("NTLMSSP\0".utf8) + [3, 0, 0, 0] + [UInt8](repeating: 0xff, count: 60)).base64EncodedString()] {
            #expect(try client.request("GET", "/ntlm/me/pw", headers: ["Authorization: \(junk)"]).status == 401)
        }
    }

    @Test("negotiate: always 401 Negotiate, reporting whether a token came")
    func negotiate() throws {
        let server = try SampleServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        let bare = try client.request("GET", "/negotiate")
        #expect(bare.status == 401)
        #expect(bare.header("WWW-Authenticate") == "Negotiate")
        #expect(bare.json["token_received"] == false)
        #expect(try client.request("GET", "/negotiate", headers: ["Authorization: Negotiate YIIB"]).json["token_received"] == true)
    }
}

func hexBytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex {
        let next = hex.index(index, offsetBy: 2)
        bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}
