import AFStyle
import Cache
import Chain
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import SampleServer
import Synchronization
import Testing

/// Issue 21's front-end items end to end against the sample server, through both front ends:
/// a base request's relative URL (22), redaction by what a body is (21), `Vary` and
/// credential-like headers in cache keys (24), and caller numbers that must not trap (8).
@Suite("Front-end correctness")
struct FrontEndCorrectnessTests {
    let queue = DispatchQueue(label: "hardening.front-end-correctness")

    func chainData(_ request: Request) async -> Outcome {
        let (_, log) = startChain(request)
        return await log.wait(for: 1).first ?? .failure(NetworkError(.timedOut, "no delivery"))
    }

    func afGET(_ manager: HTTPSessionManager, _ url: String, headers: [String: String]? = nil,
               cachePolicy: CachePolicy? = nil) async -> Outcome {
        let callbacks = AFCallbacks()
        manager.GET(url, headers: headers, cachePolicy: cachePolicy, success: callbacks.success, failure: callbacks.failure)
        return await callbacks.log.wait(for: 1).first ?? .failure(NetworkError(.timedOut, "no callback"))
    }

    // MARK: 22. A base request's relative URL

    @Test("The README's base request: api.url(\"envelope/user/101\") resolves against the request's own URL")
    func baseRequestResolvesRelativeURL() async throws {
        struct User: Decodable, Sendable { let id: String; let name: String }
        let api = Request.url(try TestServer.url("/")).header("X-App", "demo").envelope(.errcode)
            .configuration(chainConfiguration(queue: queue))
        let user = try await api.url("envelope/user/101").value(User.self)
        #expect(user.id == "101")
        let echoed = try await api.url("headers").envelope(nil).json() as? [String: Any]
        #expect((echoed?["headers"] as? [String: Any])?["X-App"] as? String == "demo", "the base request's headers are kept")
    }

    @Test("Relative URLs resolve as RFC 3986 says: under a directory, beside a file, from the root, again and again")
    func relativeResolutionRules() throws {
        let base = Request.url("http://127.0.0.1:8080/api/v1/")
        #expect(try base.url("users/7").httpRequest().url.absoluteString == "http://127.0.0.1:8080/api/v1/users/7")
        #expect(try base.url("/status").httpRequest().url.absoluteString == "http://127.0.0.1:8080/status")
        #expect(try base.url("../v2/x?q=1").httpRequest().url.absoluteString == "http://127.0.0.1:8080/api/v2/x?q=1")
        #expect(try Request.url("http://h/api").url("users").httpRequest().url.absoluteString == "http://h/users")
        // A relative URL on a relative base request stays relative until the configuration's base URL.
        let chained = base.url("users/").url("7")
        #expect(try chained.httpRequest().url.absoluteString == "http://127.0.0.1:8080/api/v1/users/7")
        #expect(try base.url(URL(string: "files/a.txt")!).httpRequest().url.absoluteString
                == "http://127.0.0.1:8080/api/v1/files/a.txt")
        let configured = ChainConfiguration(baseURL: URL(string: "http://h/root"))
        #expect(try Request.url("a").configuration(configured).url("b").httpRequest().url.absoluteString == "http://h/root/b")
        do {
            _ = try Request.url("a").url("b").httpRequest()
            Issue.record("a relative URL without any base must fail")
        } catch {
            #expect(error.kind == .invalidURL)
        }
    }

    // MARK: 21. Redaction by what the body is

    @Test("A form body labelled application/json never shows its password (Chain, AFStyle, LoggerHook)")
    func formBodyLabelledJSONIsRedacted() async throws {
        let chain = Request.url(try TestServer.url("/post")).method(.post)
            .header("Content-Type", "application/json")
            .params(["username": "wiki", "password": "hunter2"])
        #expect(try chain.httpRequest().body == .data(Data("password=hunter2&username=wiki".utf8)),
                "the Moya habit: a form body under a JSON header")
        #expect(!chain.curlDescription.contains("hunter2"))
        #expect(chain.curlDescription.contains("password=***"))

        let lines = Recorder<String>()
        let logger = LoggerHook(level: .debug, output: HookOutput { lines.append($0) })
        let manager = makeManager(queue: queue, baseURL: try TestServer.baseURL)
        let callbacks = AFCallbacks()
        let task = manager.POST("post", parameters: ["username": "wiki", "password": "hunter2"],
                                headers: ["Content-Type": "application/json"], success: callbacks.success,
                                failure: callbacks.failure)
        #expect(!(task?.curlDescription.contains("hunter2") ?? true))
        _ = await callbacks.log.wait(for: 1)
        _ = await chainData(chain.hook(logger).configuration(chainConfiguration(queue: queue)))
        let log = lines.values.joined()
        #expect(log.contains("password=***"))
        #expect(!log.contains("hunter2"), "the password reached the log")
    }

    @Test("Bodies are redacted by their bytes: JSON under a form label, unparseable text as <N bytes>, all under .none")
    func bodiesJudgedByContent() {
        var request = HTTPRequest(url: URL(string: "http://127.0.0.1/x")!, method: .post,
                                  headers: ["Content-Type": "application/x-www-form-urlencoded"])
        request.body = .data(Data(#"{"password":"hunter2","user":"wiki"}"#.utf8))
        #expect(request.curlCommand().contains(#""password":"***""#))
        request.headers["Content-Type"] = "text/plain"
        request.body = .data(Data("my password is hunter2".utf8))
        #expect(request.curlCommand().contains("'<22 bytes>'"))
        #expect(request.curlCommand(redacting: .none).contains("my password is hunter2"))
        request.body = .data(Data(#"{"password": "hunter2""#.utf8))   // JSON that does not parse
        #expect(!request.curlCommand().contains("hunter2"))
        request.body = .data(Data("a=1;password=hunter2".utf8))        // `;` is a separator to some servers
        #expect(!request.curlCommand().contains("hunter2"))
    }

    @Test("Headers named like credentials are redacted in curl commands", arguments: [
        "X-Auth-Token", "token", "X-Session-Id", "X-Api-Key", "Private-Key",
    ])
    func credentialLikeHeadersRedacted(name: String) {
        let request = HTTPRequest(url: URL(string: "http://127.0.0.1/x")!, headers: [name: "hunter2", "Accept": "text/plain"])
        let command = request.curlCommand()
        #expect(!command.contains("hunter2"))
        #expect(command.contains("Accept: text/plain"))
    }

    // MARK: 24. Vary and credential-like headers, end to end

    @Test("Chain: a response stored for Accept-Language: en is not served to fr by .cacheOnly")
    func chainHonoursVary() async throws {
        let store = try TemporaryCache()
        defer { store.remove() }
        let configuration = chainConfiguration(cache: store.cache, queue: queue)
        let url = try TestServer.url("/response-headers?Vary=Accept-Language&Cache-Control=max-age%3D60&u=\(unique())")
        let english = Request.url(url).header("Accept-Language", "en").configuration(configuration)
        #expect(await chainData(english.cache(.networkOnly)).bytes != nil)
        let french = Request.url(url).header("Accept-Language", "fr").configuration(configuration)
        #expect(await chainData(french.cache(.cacheOnly)).kind == .cacheMiss)
        #expect(await chainData(english.cache(.cacheOnly)).bytes != nil)
    }

    @Test("AFStyle: custom auth headers (X-Auth-Token, token) keep users apart under .cacheOnly")
    func afStyleSeparatesCustomAuthHeaders() async throws {
        let store = try TemporaryCache()
        defer { store.remove() }
        let manager = makeManager(queue: queue, baseURL: try TestServer.baseURL)
        manager.responseCache = store.cache
        let path = "get?u=\(unique())"
        let alice = await afGET(manager, path, headers: ["X-Auth-Token": "alice"], cachePolicy: .networkOnly)
        #expect(alice.bytes != nil)
        #expect(await afGET(manager, path, headers: ["X-Auth-Token": "bob"], cachePolicy: .cacheOnly).kind == .cacheMiss)
        #expect(await afGET(manager, path, headers: ["token": "bob"], cachePolicy: .cacheOnly).kind == .cacheMiss)
        #expect(await afGET(manager, path, headers: ["X-Auth-Token": "alice"], cachePolicy: .cacheOnly).bytes == alice.bytes)
    }

    @Test("Key headers named by the configuration separate cache entries (Chain and AFStyle)")
    func configuredKeyHeaders() async throws {
        let store = try TemporaryCache()
        defer { store.remove() }
        var configuration = chainConfiguration(cache: store.cache, queue: queue)
        let url = try TestServer.url("/get?u=\(unique())")
        func chain(_ language: String, _ policy: CachePolicy) -> Request {
            Request.url(url).header("Accept-Language", language).cache(policy).configuration(configuration)
        }
        #expect(await chainData(chain("en", .networkOnly)).bytes != nil)
        #expect(await chainData(chain("fr", .cacheOnly)).bytes != nil, "without key headers the variants share an entry")
        configuration.cacheKeyHeaders = ["accept-language"]
        #expect(await chainData(chain("en", .networkOnly)).bytes != nil)
        #expect(await chainData(chain("fr", .cacheOnly)).kind == .cacheMiss)
        #expect(await chainData(chain("en", .cacheOnly)).bytes != nil)

        let manager = makeManager(queue: queue, baseURL: try TestServer.baseURL)
        manager.responseCache = store.cache
        manager.cacheKeyHeaders = ["Accept-Language"]
        let path = "get?u=\(unique())"
        #expect(await afGET(manager, path, headers: ["Accept-Language": "en"], cachePolicy: .networkOnly).bytes != nil)
        #expect(await afGET(manager, path, headers: ["Accept-Language": "fr"], cachePolicy: .cacheOnly).kind == .cacheMiss)
        #expect(await afGET(manager, path, headers: ["Accept-Language": "en"], cachePolicy: .cacheOnly).bytes != nil)
    }

    // MARK: 8. Caller numbers never trap

    @Test("Chain: a negative or NaN timeout is an invalid request, delivered, never sent", arguments: [-1.0, .nan])
    func chainRejectsInvalidTimeouts(seconds: Double) async throws {
        let configuration = chainConfiguration(queue: queue)
        let total = Request.url(try TestServer.url("/get?u=\(unique())")).timeout(seconds).configuration(configuration)
        #expect(await chainData(total).kind == .invalidRequest)
        let idle = Request.url(try TestServer.url("/get?u=\(unique())")).timeouts(Timeouts(idle: seconds)).configuration(configuration)
        #expect(await chainData(idle).kind == .invalidRequest)
        let size = Request.url(try TestServer.url("/get?u=\(unique())")).maximumResponseSize(-1).configuration(configuration)
        #expect(await chainData(size).kind == .invalidRequest)
    }

    @Test("AFStyle: a negative or NaN timeoutInterval is an invalid request, delivered, never sent", arguments: [-1.0, .nan])
    func afStyleRejectsInvalidTimeouts(seconds: Double) async throws {
        let manager = makeManager(queue: queue, baseURL: try TestServer.baseURL)
        manager.requestSerializer.timeoutInterval = seconds
        let outcome = await afGET(manager, "get?u=\(unique())")
        #expect(outcome.kind == .invalidRequest)
    }

    @Test("Both front ends build infinite and huge timeouts as they are, without trapping", arguments: [Double.infinity, 1e300])
    func unlimitedTimeoutsPassThrough(seconds: Double) throws {
        let chain = Request.url("http://127.0.0.1:8080/get").timeout(seconds).timeouts(Timeouts(idle: seconds, total: seconds))
        let built = try chain.httpRequest()
        #expect(built.timeouts.idle == seconds && built.timeouts.total == seconds)
        #expect(!chain.curlDescription.contains("--max-time inf"), "curl would refuse it; no limit renders as no option")
        var serializer = HTTPRequestSerializer.http
        serializer.timeoutInterval = seconds
        let request = try serializer.makeRequest(method: .get, url: URL(string: "http://127.0.0.1:8080/get")!, parameters: nil)
        #expect(request.timeouts.idle == seconds)
        #expect(!request.curlCommand().contains("--max-time inf"))
    }
}
