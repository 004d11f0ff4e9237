import ChainTesting
import Chain
import Foundation
import Testing

/// The fluent builder: modifiers, copies, configuration, URL resolution, parameters.
@Suite("Request builder", .timeLimit(.minutes(2)))
struct RequestBuilderTests {
    @Test func designCardLoginDecodesTheUser() async throws {
        let result = await Request.url(try TestServer.url("/account/login"))
            .method(.post)
            .params(["username": "wiki", "password": "secret"])
            .callbackResult(User.self)
        #expect(result.success == User(id: "101", name: "wiki", age: 18, email: "wiki@example.com"))
    }

    @Test func modifiersReturnCopiesSoABaseRequestCanBeReused() async throws {
        let base = Request.url(try TestServer.url("/anything/base"))
            .header("X-App", "demo")
            .params(["common": "1"])
        let first = base.params(["page": 2]).header("X-Extra", "yes")
        let second = base.method(.post)

        let echoFirst = try await first.value(Echo.self)
        let echoSecond = try await second.value(Echo.self)
        let echoBase = try await base.value(Echo.self)

        #expect(echoFirst.args == ["common": "1", "page": "2"])
        #expect(echoFirst.headers["X-Extra"] == "yes")
        #expect(echoFirst.headers["X-App"] == "demo")
        #expect(echoSecond.method == "POST")
        #expect(echoSecond.form == ["common": "1"])
        #expect(echoSecond.headers["X-Extra"] == nil)
        #expect(echoBase.method == "GET")
        #expect(echoBase.args == ["common": "1"])
    }

    @Test func defaultEncodingFollowsTheMethod() async throws {
        let url = try TestServer.url("/anything/enc")
        let get = try await Request.url(url).params(["a": 1]).value(Echo.self)
        let delete = try await Request.url(url).method(.delete).params(["a": 1]).value(Echo.self)
        let put = try await Request.url(url).method(.put).params(["a": 1]).value(Echo.self)
        #expect(get.args == ["a": "1"] && get.bodyLength == 0)
        #expect(delete.args == ["a": "1"])
        #expect(put.args.isEmpty && put.form == ["a": "1"])
        #expect(put.headers["Content-Type"]?.hasPrefix("application/x-www-form-urlencoded") == true)
    }

    @Test func jsonEncodingSendsNestedParametersAsJSON() async throws {
        let echo = try await Request.url(try TestServer.url("/post")).method(.post)
            .params(["user": ["name": "wiki", "tags": ["a", "b"]], "flag": true])
            .encoding(.json)
            .value(Echo.self)
        #expect(echo.headers["Content-Type"] == "application/json")
        #expect(echo.data == #"{"flag":true,"user":{"name":"wiki","tags":["a","b"]}}"#)
    }

    @Test func encodableParametersAsFormAndAsJSON() async throws {
        struct Login: Encodable, Sendable { let username: String; let password: String }
        let login = Login(username: "wiki", password: "secret")
        let url = try TestServer.url("/account/login")
        let asForm = try await Request.url(url).method(.post).params(encodable: login).value(User.self)
        let asJSON = try await Request.url(url).method(.post).params(encodable: login).encoding(.json).value(User.self)
        #expect(asForm.id == "101")
        #expect(asJSON.id == "101")
    }

    @Test func encodableThatIsNotAnObjectCannotBeFormParameters() async throws {
        let result = await Request.url(try TestServer.url("/post")).method(.post)
            .params(encodable: [1, 2, 3]).callbackResult(Echo.self)
        #expect(result.failure?.kind == .invalidParameters)
    }

    @Test func unsupportedParameterValueIsReportedThroughTheCompletion() async throws {
        struct Opaque {}
        let result = await Request.url(try TestServer.url("/get")).params(["bad": Opaque()]).callbackResult(Echo.self)
        let error = try #require(result.failure)
        #expect(error.kind == .invalidParameters)
        #expect(error.message.contains("bad"))
    }

    @Test func queryParametersStayInTheURLBesideABody() async throws {
        let echo = try await Request.url(try TestServer.url("/post")).method(.post)
            .query(["page": 3])
            .body(Data("raw text".utf8), contentType: "text/plain")
            .value(Echo.self)
        #expect(echo.args == ["page": "3"])
        #expect(echo.data == "raw text")
        #expect(echo.headers["Content-Type"] == "text/plain")
    }

    @Test(arguments: ["", "http://exa mple.com/", "http://", "   "])
    func invalidURLIsReportedThroughTheCompletionExactlyOnce(url: String) async throws {
        let calls = Recorder<NetworkError.Kind?>()
        let result: Result<User, NetworkError> = await withCheckedContinuation { continuation in
            Request.url(url).configuration(ChainConfiguration()).response(User.self) { result in
                calls.append(result.failure?.kind)
                continuation.resume(returning: result)
            }
        }
        #expect(result.failure?.kind == .invalidURL)
        // Anything delivered twice would have been recorded before this second round trip ends.
        _ = try await Request.url(try TestServer.url("/get")).data()
        #expect(calls.values == [.invalidURL])
    }

    @Test func relativeURLWithoutABaseURLIsInvalid() async throws {
        let result = await Request.url("user/101").configuration(ChainConfiguration()).callbackResult(User.self)
        #expect(result.failure?.kind == .invalidURL)
    }

    @Test func relativeURLResolvesAgainstTheBaseURLAsADirectory() throws {
        let base = try #require(URL(string: "http://127.0.0.1:1/api/v1"))
        let configuration = ChainConfiguration(baseURL: base)
        let nested = try configuration.url("user/101").httpRequest()
        let rooted = try configuration.url("/user/101").httpRequest()
        let absolute = try configuration.url("http://example.com/x").httpRequest()
        #expect(nested.url.absoluteString == "http://127.0.0.1:1/api/v1/user/101")
        #expect(rooted.url.absoluteString == "http://127.0.0.1:1/user/101")
        #expect(absolute.url.absoluteString == "http://example.com/x")
    }

    @Test func configurationSuppliesBaseURLHeadersAndRequestHeadersWin() async throws {
        var configuration = try TestServer.configuration()
        configuration.headers = ["X-Common": "config", "X-Override": "config"]
        let echo = try await configuration.url("/get").header("X-Override", "request").value(Echo.self)
        #expect(echo.headers["X-Common"] == "config")
        #expect(echo.headers["X-Override"] == "request")
    }

    @Test func defaultsAreReadWhenTheRequestStarts() async throws {
        let saved = Request.defaults
        defer { Request.defaults = saved }
        // Only settings that cannot disturb tests running in parallel (they use absolute URLs).
        Request.updateDefaults { defaults in
            defaults.baseURL = try? TestServer.baseURL
            defaults.headers["X-Chain-Default"] = "on"
        }
        let echo = try await Request.url("get").value(Echo.self)
        #expect(echo.path == "/get")
        #expect(echo.headers["X-Chain-Default"] == "on")
    }

    @Test func timeoutFailsASlowRequest() async throws {
        let result = await Request.url(try TestServer.url("/delay/30")).timeout(0.5).callbackResult(Echo.self)
        #expect(result.failure?.kind == .timedOut)
        // No time bound: without the timeout the server's 30 s delay would end in a success,
        // so `.timedOut` is the proof (a bound fails under sanitizers).
    }

    @Test func callbacksRunOnTheConfiguredQueue() async throws {
        let queue = DispatchQueue(label: "chain.tests.callbacks")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 7)
        let request = Request.url(try TestServer.url("/get")).queue(queue)
        let seen: Int? = await withCheckedContinuation { continuation in
            request.responseData { _ in
                continuation.resume(returning: DispatchQueue.getSpecific(key: key))
            }
        }
        #expect(seen == 7)
    }

    @Test func progressReportsTheDownload() async throws {
        let reports = Recorder<TransferProgress>()
        let data = try await Request.url(try TestServer.url("/bytes/200000"))
            .progress { reports.append($0) }
            .data()
        let downloads = reports.values.filter { $0.direction == .download }
        #expect(data.count == 200_000)
        #expect(downloads.last?.completedBytes == 200_000)
    }

    @Test func interceptorAdaptsTheRequest() async throws {
        struct AddToken: RequestInterceptor {
            func adapt(_ request: HTTPRequest, completion: @escaping @Sendable (Result<HTTPRequest, NetworkError>) -> Void) {
                var request = request
                request.headers["Authorization"] = "Bearer t-0"
                completion(.success(request))
            }
        }
        let result = await Request.url(try TestServer.url("/auth/protected")).interceptor(AddToken())
            .callbackVoidResult()
        #expect(result.success != nil)
    }

    @Test func retryPolicyRetriesAFlakyEndpoint() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 503))
        server.enqueue(.text("second time lucky"))
        // A client of its own: in the shared one, the idle connections of suites running in
        // parallel can push this one out of the pool (32 kept) before the retry.
        let text = try await Request.url(server.url("/flaky")).configuration(ChainConfiguration(client: HTTPClient()))
            .retry(RetryPolicy(maximumRetries: 2, baseDelay: 0.01)).string()
        #expect(text == "second time lucky")
        #expect(try await server.takeRequest().path == "/flaky")
        let retry = try await server.takeRequest()
        #expect(retry.path == "/flaky")
        #expect(retry.isConnectionReused, "a 503 with a body framed by length keeps the connection")
        #expect(server.requestCount == 2)
    }

    @Test func perRequestHookSeesTheRequestWithOriginChain() async throws {
        final class OriginRecorder: HTTPHook {
            let origins = Recorder<String>()
            func didFinish(_ context: HookContext, response: HTTPResponse) { origins.append(context.origin) }
        }
        let hook = OriginRecorder()
        _ = try await Request.url(try TestServer.url("/get")).hook(hook).data()
        #expect(hook.origins.values == ["Chain"])
    }
}
