import AFStyle
import Cache
import Chain
import Foundation
import SampleServer
import Testing

/// The origin's authentication challenges answered by libcurl, end to end: the sample
/// server's Basic, Digest, NTLM and Negotiate routes and nginx's `auth_basic`, through the
/// client and both front ends. Each test that counts requests has a server of its own.
@Suite("Transport reach: authentication", .timeLimit(.minutes(2)))
struct AuthenticationTests {
    private struct Authenticated: Decodable, Sendable, Equatable {
        let authenticated: Bool
        let user: String
    }

    private static let expectedBody = #"{"authenticated":true,"user":"me"}"#

    private func request(_ server: SampleServer, _ path: String, _ authentication: Authentication?) -> HTTPRequest {
        var request = HTTPRequest(url: server.baseURL.appendingPathComponent(path))
        request.authentication = authentication
        return request
    }

    /// Basic goes with the first request: one request in all, and `/headers` shows the field.
    @Test func basicIsSentWithTheFirstRequest() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            let response = try await client.result(request(server, "/basic-auth/me/pw", .basic(user: "me", password: "pw"))).get()
            #expect(response.statusCode == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == Self.expectedBody)
            #expect(server.requestCount == 1)

            let echoed = try await client.result(request(server, "/headers", .basic(user: "me", password: "pw"))).get()
            let expected = "Basic " + Data("me:pw".utf8).base64EncodedString()
            #expect(String(decoding: echoed.body, as: UTF8.self).contains(#""Authorization":"\#(expected)""#))
            #expect(server.requestCount == 2)
        }
    }

    /// Digest costs one 401 first; what is delivered is the final 200 alone: its status, its
    /// own headers (no challenge) and its body, with nothing of the 401's.
    @Test(arguments: ["/digest-auth/auth/me/pw", "/digest-auth/auth/me/pw/SHA-256", "/digest-auth/auth/me/pw/MD5"])
    func digestRoundTrip(path: String) async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            let response = try await client.result(request(server, path, .digest(user: "me", password: "pw"))).get()
            #expect(response.statusCode == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == Self.expectedBody)
            #expect(response.headers["WWW-Authenticate"] == nil)
            #expect(response.headers["Content-Length"] == String(Self.expectedBody.utf8.count))
            #expect(server.requestCount == 2)
            #expect(server.acceptedConnections == 1)
        }
    }

    /// `.any` waits for the challenge and picks Digest over the Basic offered next to it
    /// (which the route refuses, so Basic would have ended in 401).
    @Test func anyPicksDigestWhenOffered() async throws {
        try await withPrivateServer { server in
            var request = HTTPRequest(url: try #require(URL(string: server.baseURL.absoluteString + "/digest-auth/auth/me/pw?also-basic=true")))
            request.authentication = .any(user: "me", password: "pw")
            let response = try await HTTPClient().result(request).get()
            #expect(response.statusCode == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == Self.expectedBody)
            #expect(server.requestCount == 2)
        }
    }

    /// A wrong password ends as the server's last 401, delivered whole (its challenge, its
    /// body once), and as `.unacceptableStatus(401)` with that response through Chain.
    @Test(arguments: ["/basic-auth/me/pw", "/digest-auth/auth/me/pw", "/ntlm/me/pw"])
    func aWrongPasswordEndsAsTheServersFinal401(path: String) async throws {
        try await withPrivateServer { server in
            let scheme: Authentication.Scheme = path.hasPrefix("/basic") ? .basic : path.hasPrefix("/digest") ? .digest : .ntlm
            let credentials = Authentication(scheme: scheme, user: "me", password: "wrong")
            let response = try await HTTPClient().result(request(server, path, credentials)).get()
            #expect(response.statusCode == 401)
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"error":"authentication required","error_code":"401"}"#)
            #expect(response.headers.values(for: "WWW-Authenticate").count == 1)

            let configuration = ChainConfiguration(client: HTTPClient())
            do throws(NetworkError) {
                _ = try await Request.url(server.baseURL.appendingPathComponent(path)).configuration(configuration)
                    .authentication(credentials).data()
                Issue.record("a refused password was delivered as a success")
            } catch {
                #expect(error.kind == .unacceptableStatus(401))
                #expect(error.response?.statusCode == 401)
                #expect(error.response.map { String(decoding: $0.body, as: UTF8.self) }
                    == #"{"error":"authentication required","error_code":"401"}"#)
            }
        }
    }

    /// NTLMv2: three messages on one connection (the type-1 goes with the first request, as
    /// libcurl sends it without waiting for a challenge when NTLM is the only scheme).
    @Test func ntlmHandshake() async throws {
        try await withPrivateServer { server in
            let response = try await HTTPClient().result(request(server, "/ntlm/me/pw", .ntlm(user: "me", password: "pw"))).get()
            #expect(response.statusCode == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == Self.expectedBody)
            #expect(server.requestCount == 2)
            #expect(server.acceptedConnections == 1)
        }
    }

    /// A POST with a body through each multi-pass scheme, on one connection. libcurl counts
    /// the handshake's second request as a redirect (`CURLINFO_REDIRECT_COUNT` is 1 at its
    /// pre-request callback), so the re-send guard, which refuses a second send of a POST on
    /// the same hop, does not take it for a re-send after a dead connection.
    @Test(arguments: [Authentication.digest(user: "me", password: "pw"), .ntlm(user: "me", password: "pw"),
                      .any(user: "me", password: "pw")])
    func aPOSTThroughAHandshake(credentials: Authentication) async throws {
        try await withPrivateServer { server in
            var post = request(server, credentials.scheme == .ntlm ? "/ntlm/me/pw" : "/digest-auth/auth/me/pw", credentials)
            post.method = .post
            post.body = .data(Data(#"{"n":1}"#.utf8))
            post.headers["Content-Type"] = "application/json"
            let response = try await HTTPClient().result(post).get()
            #expect(response.statusCode == 200)
            #expect(String(decoding: response.body, as: UTF8.self) == Self.expectedBody)
            #expect(server.requestCount == 2)
            #expect(server.acceptedConnections == 1)
        }
    }

    /// Without a Kerberos ticket GSS-API has no token to send: the server's 401 is delivered.
    @Test func negotiateWithoutATicketEndsAsThe401() async throws {
        try await withPrivateServer { server in
            let response = try await HTTPClient().result(request(server, "/negotiate", .negotiate)).get()
            #expect(response.statusCode == 401)
            #expect(response.headers["WWW-Authenticate"] == "Negotiate")
            #expect(String(decoding: response.body, as: UTF8.self).contains(#""token_received":false"#))
            #expect(server.requestCount == 1)
        }
    }

    /// A handle that carried credentials goes back to the pool; the next request on the same
    /// client (on that handle) sends no `Authorization`, whatever the scheme was.
    @Test(arguments: [Authentication.basic(user: "me", password: "pw"), .digest(user: "me", password: "pw"),
                      .ntlm(user: "me", password: "pw"), .any(user: "me", password: "pw")])
    func credentialsDoNotLeakIntoTheNextRequest(credentials: Authentication) async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            let path = switch credentials.scheme {
            case .basic: "/basic-auth/me/pw"
            case .ntlm: "/ntlm/me/pw"
            default: "/digest-auth/auth/me/pw"
            }
            #expect(try await client.result(request(server, path, credentials)).get().statusCode == 200)
            #expect(server.acceptedConnections == 1)
            for _ in 0..<3 {
                let echoed = try await client.result(request(server, "/headers", nil)).get()
                #expect(!String(decoding: echoed.body, as: UTF8.self).contains("Authorization"))
            }
            #expect(try await client.result(request(server, path, nil)).get().statusCode == 401)
            // libcurl does not reuse a connection that NTLM authenticated for a request without
            // NTLM (the server would take it as authenticated): those get a connection of their own.
            #expect(server.acceptedConnections == (credentials.scheme == .ntlm ? 2 : 1))
        }
    }

    /// Digest on a handle that answered another server's Digest challenge before starts afresh
    /// there: libcurl keeps the last nonce on the easy handle (only `curl_easy_reset` clears
    /// it), so a handle that carried credentials is reset before its next request; otherwise
    /// the first server's nonce, realm and opaque would go preemptively to the second.
    @Test func digestAfterDigestToAnotherServerOnTheSameClient() async throws {
        try await withPrivateServer { first in
            try await withPrivateServer { second in
                let client = HTTPClient()
                let credentials = Authentication.digest(user: "me", password: "pw")
                #expect(try await client.result(request(first, "/digest-auth/auth/me/pw", credentials)).get().statusCode == 200)
                let probe = try await client.result(request(second, "/headers", credentials)).get()
                let response = try await client.result(request(second, "/digest-auth/auth/me/pw", credentials)).get()
                #expect(!String(decoding: probe.body, as: UTF8.self).contains("Digest"),
                        "Digest is never sent before the server's own challenge")
                #expect(response.statusCode == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == Self.expectedBody)
            }
        }
    }

    /// A same-origin redirect keeps the credentials; one to another origin (another port here)
    /// drops them.
    @Test func credentialsFollowSameOriginRedirectsOnly() async throws {
        try await withPrivateServer { first in
            try await withPrivateServer { second in
                let client = HTTPClient()
                let credentials = Authentication.basic(user: "me", password: "pw")
                func via(_ target: String) throws -> HTTPRequest {
                    let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? target
                    var request = HTTPRequest(url: try #require(URL(string: first.baseURL.absoluteString + "/redirect-to?url=" + encoded)))
                    request.authentication = credentials
                    return request
                }
                let same = try await client.result(try via("/headers")).get()
                #expect(String(decoding: same.body, as: UTF8.self).contains(#""Authorization":"Basic "#))
                let other = try await client.result(try via(second.baseURL.absoluteString + "/headers")).get()
                #expect(other.statusCode == 200)
                #expect(!String(decoding: other.body, as: UTF8.self).contains("Authorization"))
            }
        }
    }

    /// The curl rendering shows the user and the scheme's flag, the password only without
    /// redaction; the logger, at its most verbose, shows neither the password nor the
    /// `Authorization` field a server echoes back.
    @Test func credentialsStayOutOfTheCurlCommandAndTheLog() async throws {
        let server = try TestServer.baseURL
        let chain = Request.url(server.appendingPathComponent("/headers")).authentication(.digest(user: "me", password: "s3cret"))
        let command = chain.curlCommand()
        #expect(command.contains("--user 'me:***'"))
        #expect(command.contains("--digest"))
        #expect(!command.contains("s3cret"))
        #expect(chain.curlCommand(redacting: .none).contains("--user 'me:s3cret'"))
        let rendered: [(Authentication, String?)] = [(.basic(user: "me", password: "x"), nil), (.ntlm(user: "me", password: "x"), "--ntlm"),
                                                     (.any(user: "me", password: "x"), "--anyauth"), (.negotiate, "--negotiate")]
        for (credentials, flag) in rendered {
            var request = HTTPRequest(url: server)
            request.authentication = credentials
            let text = request.curlCommand(redacting: .default, multiline: false)
            if let flag { #expect(text.contains(flag)) }
            #expect(!text.contains("--digest") && !text.contains("--basic"))
            #expect(text.contains(credentials.scheme == .negotiate ? "--user ':'" : "--user 'me:***'"))
        }

        let log = Recorder<String>()
        let configuration = ChainConfiguration(client: HTTPClient(),
                                               hooks: [LoggerHook(level: .debug, output: HookOutput { log.append($0) })])
        let body = try await Request.url(server.appendingPathComponent("/headers")).configuration(configuration)
            .authentication(.basic(user: "me", password: "s3cret")).data()
        #expect(String(decoding: body, as: UTF8.self).contains(Data("me:s3cret".utf8).base64EncodedString()))
        let text = (await log.wait(for: 2)).joined()
        #expect(text.contains("--user 'me:***'"))
        #expect(!text.contains("s3cret"))
        #expect(!text.contains(Data("me:s3cret".utf8).base64EncodedString()))
    }

    /// Two users, or two schemes, never share a cached entry; the same credentials do.
    @Test func theCacheKeyDiffersPerUser() throws {
        func key(_ credentials: Authentication?) throws -> CacheKey {
            var request = HTTPRequest(url: try #require(URL(string: "https://example.test/report")))
            request.authentication = credentials
            return try #require(CacheKey(request: request))
        }
        let alice = try key(.basic(user: "alice", password: "pw"))
        #expect(alice == (try key(.basic(user: "alice", password: "pw"))))
        #expect(alice != (try key(.basic(user: "bob", password: "pw"))))
        #expect(alice != (try key(.basic(user: "alice", password: "other"))))
        #expect(alice != (try key(.digest(user: "alice", password: "pw"))))
        #expect(alice != (try key(nil)))
        // The user's length keeps "a:b" + "c" apart from "a" + "b:c".
        #expect(try key(.basic(user: "a:b", password: "c")) != (try key(.basic(user: "a", password: "b:c"))))
        #expect(!alice.rawValue.contains("alice"))
    }

    /// nginx's `auth_basic` (an `openssl passwd -apr1` htpasswd): the right password through
    /// Chain's modifier, its configuration and AFStyle's manager setting; a wrong one is 401.
    @Test func nginxAuthBasicThroughBothFrontEnds() async throws {
        let nginx = try await Peers.nginx
        let url = nginx.httpURL("/basic")
        let right = Authentication.basic(user: NginxPeer.basicUser, password: NginxPeer.basicPassword)
        let wrong = Authentication.basic(user: NginxPeer.basicUser, password: "wrong")

        let body = try await Request.url(url).authentication(right).data()
        #expect(String(decoding: body, as: UTF8.self) == #"{"authenticated":true}"#)
        var configuration = ChainConfiguration()
        configuration.authentication = right
        #expect(try await Request.url(url).configuration(configuration).data().count > 0)
        do throws(NetworkError) {
            _ = try await Request.url(url).configuration(configuration).authentication(wrong).data()
            Issue.record("nginx accepted a wrong password")
        } catch {
            #expect(error.kind == .unacceptableStatus(401))
        }

        let manager = HTTPSessionManager(baseURL: nginx.httpURL("/"))
        manager.responseSerializer = .data
        manager.authentication = right
        let accepted: Result<Data, NetworkError> = await withCheckedContinuation { continuation in
            manager.GET("basic", success: { _, value in continuation.resume(returning: .success(value as? Data ?? Data())) },
                        failure: { _, error in continuation.resume(returning: .failure(error)) })
        }
        #expect(accepted.success.map { String(decoding: $0, as: UTF8.self) } == #"{"authenticated":true}"#)
        manager.authentication = wrong
        let refused: Result<Data, NetworkError> = await withCheckedContinuation { continuation in
            manager.GET("basic", success: { _, value in continuation.resume(returning: .success(value as? Data ?? Data())) },
                        failure: { _, error in continuation.resume(returning: .failure(error)) })
        }
        #expect(refused.failure?.kind == .unacceptableStatus(401))
        #expect(refused.failure?.response?.statusCode == 401)
    }
}
