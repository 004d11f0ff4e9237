import Chain
import Foundation
import Testing

/// Terminal methods, validation and error bodies.
@Suite("Responses", .timeLimit(.minutes(2)))
struct ResponseTests {
    @Test func decodableUser() async throws {
        let user = try await Request.url(try TestServer.url("/user/102")).value(User.self)
        #expect(user.name == "alice")
    }

    @Test func voidIgnoresTheBody() async throws {
        let result = await Request.url(try TestServer.url("/status/204")).callbackVoidResult()
        #expect(result.success != nil)
    }

    @Test func dataStringAndJSON() async throws {
        let url = try TestServer.url("/user/query?q=i")
        let data = try await Request.url(url).data()
        let text = try await Request.url(url).string()
        let json = try await Request.url(url).json()
        #expect(String(decoding: data, as: UTF8.self) == text)
        let users = try #require(json as? [[String: Any]])
        #expect(users.compactMap { $0["name"] as? String } == ["wiki", "alice"])
    }

    @Test func responseJSONCallback() async throws {
        let request = Request.url(try TestServer.url("/user/101"))
        let name: String? = await withCheckedContinuation { continuation in
            request.responseJSON { result in
                continuation.resume(returning: (result.success as? [String: Any])?["name"] as? String)
            }
        }
        #expect(name == "wiki")
    }

    @Test func stringUsesTheCharsetOfContentType() async throws {
        // "é" in ISO-8859-1 is the single byte 0xE9, which is not valid UTF-8.
        let latin1 = Request.url(unreachableURL)
            .stub(Stub(headers: ["Content-Type": "text/plain; charset=ISO-8859-1"], body: Data([0x63, 0x61, 0x66, 0xE9])))
        #expect(try await latin1.string() == "café")
        let utf8Default = Request.url(unreachableURL)
            .stub(Stub(headers: ["Content-Type": "text/plain"], body: Data([0x63, 0x61, 0x66, 0xE9])))
        await #expect(throws: NetworkError.self) { try await utf8Default.string() }
        let result = await withCheckedContinuation { continuation in
            utf8Default.responseString { continuation.resume(returning: $0) }
        }
        #expect(result.failure?.kind == .decodingFailed)
    }

    @Test func deliveryCarriesStatusHeadersTimingsRequestAndSource() async throws {
        let delivery = await Request.url(try TestServer.url("/response-headers?X-Marker=42")).delivery([String: String].self)
        #expect(delivery.value?["X-Marker"] == "42")
        #expect(delivery.statusCode == 200)
        #expect(delivery.headers["X-Marker"] == "42")
        #expect((delivery.timings?.total ?? 0) > 0)
        #expect(delivery.source == .network && !delivery.isFromCache)
        #expect(delivery.request.url.path == "/response-headers")
        #expect(delivery.isFinal)
    }

    @Test func responseDeliveryCallbackWithACustomSerializer() async throws {
        let request = Request.url(try TestServer.url("/bytes/10"))
        let delivery: Delivery<Int> = await withCheckedContinuation { continuation in
            request.responseDelivery(using: ResponseSerializer { response, _ in response.body.count }) {
                continuation.resume(returning: $0)
            }
        }
        #expect(delivery.value == 10)
    }

    @Test func statusOutsideTheDefaultRangeFails() async throws {
        let result = await Request.url(try TestServer.url("/user/999")).callbackResult(User.self)
        let error = try #require(result.failure)
        #expect(error.kind == .unacceptableStatus(404))
        #expect(error.statusCode == 404)
        // No error-body type: a generic status error quoting the raw body.
        #expect(error.message.contains("user not found"))
        #expect(error.underlyingError == nil)
    }

    @Test func validateWithCodesAndWithAClosure() async throws {
        let url = try TestServer.url("/status/418")
        let accepted = await Request.url(url).validate(statusCodes: [418]).callbackVoidResult()
        #expect(accepted.success != nil)
        let rejected = await Request.url(try TestServer.url("/get")).validate { $0.headers["X-Missing"] != nil }
            .callbackVoidResult()
        #expect(rejected.failure?.kind == .unacceptableStatus(200))
        let anything = await Request.url(url).validate(.none).callbackVoidResult()
        #expect(anything.success != nil)
    }

    // MARK: Error bodies

    @Test func jsonErrorBodyIsDecodedIntoTheError() async throws {
        let result = await Request.url(try TestServer.url("/account/login")).method(.post)
            .params(["username": "wiki", "password": "wrong"])
            .errorBody(APIError.self)
            .callbackResult(User.self)
        let error = try #require(result.failure)
        #expect(error.kind == .unacceptableStatus(401))
        let body = try #require(error.underlyingError as? APIError)
        #expect(body == APIError(error: "invalid username or password", error_code: "1001"))
        #expect(error.response?.statusCode == 401)
    }

    @Test func errorBodyFromTheConfiguration() async throws {
        var configuration = try TestServer.configuration()
        configuration.errorBody = ErrorBodyDecoder(APIError.self)
        let result = await configuration.url("/user/999").callbackResult(User.self)
        #expect((result.failure?.underlyingError as? APIError)?.error_code == "1004")
    }

    @Test func htmlErrorBodyGivesAGenericStatusError() async throws {
        let html = "<html>\n<body><h1>502 Bad Gateway</h1></body>\n</html>"
        let result = await Request.url(unreachableURL)
            .stub(Stub(statusCode: 502, headers: ["Content-Type": "text/html"], body: Data(html.utf8)))
            .errorBody(APIError.self)
            .callbackResult(User.self)
        let error = try #require(result.failure)
        #expect(error.kind == .unacceptableStatus(502))
        #expect(error.underlyingError == nil)
        #expect(error.response?.body == Data(html.utf8))
        #expect(error.message.contains("502 Bad Gateway"))
        #expect(!error.message.contains("\n"))
    }

    @Test func emptyErrorBodyGivesAGenericStatusError() async throws {
        let result = await Request.url(unreachableURL)
            .stub(Stub(statusCode: 500, headers: [:], body: Data()))
            .errorBody(APIError.self)
            .callbackResult(User.self)
        let error = try #require(result.failure)
        #expect(error.kind == .unacceptableStatus(500))
        #expect(error.underlyingError == nil)
    }

    @Test func binaryErrorBodyFromTheServerGivesAGenericStatusError() async throws {
        // /bytes answers 200 with random bytes; accepting only 201 makes that a rejected body.
        let result = await Request.url(try TestServer.url("/bytes/64")).validate(statusCodes: [201])
            .errorBody(APIError.self)
            .callbackResult(User.self)
        let error = try #require(result.failure)
        #expect(error.kind == .unacceptableStatus(200))
        #expect(error.response?.body.count == 64)
    }

    // MARK: Decoding failures

    @Test func decodingFailureNamesTheCodingPath() async throws {
        struct Strict: Decodable, Sendable { let id: Int }
        let result = await Request.url(try TestServer.url("/user/101")).callbackResult(Strict.self)
        let error = try #require(result.failure)
        #expect(error.kind == .decodingFailed)
        #expect(error.codingPath == "id")
        #expect(error.response?.statusCode == 200)
    }

    @Test func emptyBodyForAModelIsADecodingFailure() async throws {
        let result = await Request.url(try TestServer.url("/status/204")).callbackResult(User.self)
        let error = try #require(result.failure)
        #expect(error.kind == .decodingFailed)
        #expect(error.message.contains("empty"))
    }

    // MARK: Cancellation

    @Test func cancellingTheTaskDeliversCancelledOnce() async throws {
        let calls = Recorder<NetworkError.Kind?>()
        // Cancelled (twice) on the thread that announces the send, not from a task that the
        // busy concurrency pool may run only after the server's 30 s delay.
        let cancelOnSend = Trigger()
        let request = Request.url(try TestServer.url("/delay/30")).hook(OnSend(cancelOnSend))
        let result: Result<Echo, NetworkError> = await withCheckedContinuation { continuation in
            let task = request.response(Echo.self) { result in
                calls.append(result.failure?.kind)
                continuation.resume(returning: result)
            }
            cancelOnSend.set {
                task.cancel()
                task.cancel()
            }
        }
        #expect(result.failure?.kind == .cancelled)
        // No time bound: a transfer that was not cut short would end in a success after the
        // server's 30 s delay, so `.cancelled` is the proof (a bound fails under sanitizers).
        _ = try await Request.url(try TestServer.url("/get")).data()
        #expect(calls.values == [.cancelled])
    }
}
