import AFStyle
import Foundation
import SampleServer
import Testing

@Suite("Serializers", .timeLimit(.minutes(2)))
struct SerializerTests {
    let url: URL

    init() throws {
        url = try #require(URL(string: "http://h.com/api"))
    }

    // MARK: Request serializer (no I/O)

    @Test("http: query for GET, HEAD and DELETE; form body for the rest")
    func httpSerializer() throws {
        let serializer = HTTPRequestSerializer.http
        let parameters: [String: Any] = ["q": "a b", "user": ["name": "wiki", "age": 18], "ids": [1, 2], "ok": true]
        for method in [HTTPMethod.get, .head, .delete] {
            let request = try serializer.makeRequest(method: method, url: url, parameters: parameters)
            #expect(request.url.absoluteString
                == "http://h.com/api?ids%5B%5D=1&ids%5B%5D=2&ok=1&q=a%20b&user%5Bage%5D=18&user%5Bname%5D=wiki")
            #expect(request.body == .none)
        }
        for method in [HTTPMethod.post, .put, .patch] {
            let request = try serializer.makeRequest(method: method, url: url, parameters: ["a": 1, "b": "x y"])
            #expect(request.url == url)
            #expect(request.body == .data(Data("a=1&b=x%20y".utf8)))
            #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        }
    }

    @Test("json: query for GET, a sorted JSON body for the rest, arrays included")
    func jsonSerializer() throws {
        let serializer = HTTPRequestSerializer.json
        let get = try serializer.makeRequest(method: .get, url: url, parameters: ["a": 1])
        #expect(get.url.absoluteString == "http://h.com/api?a=1")
        let post = try serializer.makeRequest(method: .post, url: url, parameters: ["b": [1, 2], "a": NSNull()])
        #expect(post.body == .data(Data(#"{"a":null,"b":[1,2]}"#.utf8)))
        #expect(post.headers["Content-Type"] == "application/json")
        let array = try serializer.makeRequest(method: .put, url: url, parameters: [1, "two"])
        #expect(array.body == .data(Data(#"[1,"two"]"#.utf8)))
    }

    @Test("parameters that cannot be encoded are .invalidParameters")
    func invalidParameters() {
        #expect(throws: NetworkError.self) {
            try HTTPRequestSerializer.json.makeRequest(method: .post, url: url, parameters: ["x": Double.nan])
        }
        for bad: Any in ["a string", [1, 2], 42] {
            do {
                _ = try HTTPRequestSerializer.http.makeRequest(method: .post, url: url, parameters: bad)
                Issue.record("expected a failure for \(bad)")
            } catch {
                #expect(error.kind == .invalidParameters)
            }
        }
    }

    @Test("default headers, per-call headers on top, Basic authorization and the timeout")
    func headersAndTimeout() throws {
        var serializer = HTTPRequestSerializer.http
        serializer.setValue("en", forHTTPHeaderField: "Accept-Language")
        serializer.setValue("1", forHTTPHeaderField: "X-Default")
        serializer.setAuthorizationHeader(username: "wiki", password: "secret")
        serializer.timeoutInterval = 7
        #expect(serializer.value(forHTTPHeaderField: "authorization") == "Basic d2lraTpzZWNyZXQ=")
        let request = try serializer.makeRequest(method: .get, url: url, parameters: nil, headers: ["X-Default": "2"])
        #expect(request.headers["Accept-Language"] == "en")
        #expect(request.headers["X-Default"] == "2")
        #expect(request.headers.values(for: "X-Default") == ["2"])
        #expect(request.timeouts.idle == 7)
        serializer.clearAuthorizationHeader()
        #expect(serializer.value(forHTTPHeaderField: "Authorization") == nil)
        #expect(HTTPRequestSerializer.http.timeoutInterval == 60)
    }

    // MARK: Against the server

    @Test("the manager's serializer settings reach the server: Basic auth and default headers")
    func settingsReachServer() async throws {
        let manager = try makeManager()
        manager.requestSerializer.setAuthorizationHeader(username: "wiki", password: "secret")
        manager.requestSerializer.setValue("fr", forHTTPHeaderField: "Accept-Language")
        let callbacks = Callbacks<Any?>()
        manager.GET("headers", parameters: nil, headers: ["X-Call": "yes"], success: callbacks.success,
                    failure: callbacks.failure)
        let headers = try #require(try await callbacks.dictionary()["headers"] as? [String: Any])
        let lowercased = Dictionary(uniqueKeysWithValues: headers.map { ($0.key.lowercased(), $0.value) })
        #expect(lowercased["authorization"] as? String == "Basic d2lraTpzZWNyZXQ=")
        #expect(lowercased["accept-language"] as? String == "fr")
        #expect(lowercased["x-call"] as? String == "yes")
    }

    @Test("the JSON serializer accepts application/json, text/json and text/javascript")
    func acceptableJSONTypes() async throws {
        let manager = try makeManager()
        for type in ["application/json; charset=utf-8", "text/json", "text/javascript"] {
            let callbacks = Callbacks<Any?>()
            manager.GET("response-headers", parameters: ["Content-Type": type], success: callbacks.success,
                        failure: callbacks.failure)
            let object = try await callbacks.dictionary()
            #expect(object["Content-Type"] as? String == type)
        }
    }

    @Test("a wrong content type fails with a clear .decodingFailed; nil acceptable types accept it")
    func wrongContentType() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        manager.GET("response-headers", parameters: ["Content-Type": "text/html"], success: callbacks.success,
                    failure: callbacks.failure)
        let error = try #require(try await callbacks.one().error)
        #expect(error.kind == .decodingFailed)
        #expect(error.message.contains("unacceptable content type text/html"))
        #expect(error.message.contains("application/json"))
        #expect(error.statusCode == 200)

        manager.responseSerializer.acceptableContentTypes = nil
        let lenient = Callbacks<Any?>()
        manager.GET("response-headers", parameters: ["Content-Type": "text/html"], success: lenient.success,
                    failure: lenient.failure)
        #expect(try await lenient.dictionary()["Content-Type"] as? String == "text/html")
    }

    @Test("statuses outside acceptableStatusCodes fail with .unacceptableStatus and the body")
    func statusValidation() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        manager.GET("user/999", success: callbacks.success, failure: callbacks.failure)
        let callback = try await callbacks.one()
        let error = try #require(callback.error)
        #expect(error.kind == .unacceptableStatus(404))
        let body = String(decoding: error.response?.body ?? Data(), as: UTF8.self)
        #expect(body.contains("1004"))
        #expect(callback.task?.response?.statusCode == 404)
        #expect(callback.task?.error?.kind == .unacceptableStatus(404))

        manager.responseSerializer.acceptableStatusCodes = IndexSet(integersIn: 200..<500)
        let accepted = Callbacks<Any?>()
        manager.GET("user/999", success: accepted.success, failure: accepted.failure)
        #expect(try await accepted.dictionary()["error_code"] as? String == "1004")
    }

    @Test("an empty body is a nil responseObject, not an error")
    func emptyBody() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        manager.GET("status/204", success: callbacks.success, failure: callbacks.failure)
        let callback = try await callbacks.one()
        #expect(callback.error == nil)
        #expect(callback.value.flatMap { $0 } == nil)
    }

    @Test("the data and string serializers; removesKeysWithNullValues")
    func dataAndString() async throws {
        let manager = try makeManager()
        manager.responseSerializer = .data
        let data = Callbacks<Any?>()
        manager.GET("bytes/1000", parameters: ["seed": 3], success: data.success, failure: data.failure)
        let bytes = try #require(try await data.one().value as? Data)
        #expect(bytes == Data(SampleServer.deterministicBytes(count: 1000, seed: 3)))

        manager.responseSerializer = .string
        let string = Callbacks<Any?>()
        manager.GET("user/101", success: string.success, failure: string.failure)
        let text = try #require(try await string.one().value as? String)
        #expect(text.contains(#""name":"wiki""#))

        manager.responseSerializer = .json
        manager.responseSerializer.removesKeysWithNullValues = true
        let json = Callbacks<Any?>()
        manager.GET("envelope/fail", success: json.success, failure: json.failure)
        let object = try await json.dictionary()
        #expect(object["data"] == nil)
        #expect(object["errcode"] as? Int == 40001)
    }

    @Test("invalid JSON fails with .decodingFailed")
    func invalidJSON() async throws {
        let manager = try makeManager()
        manager.responseSerializer.acceptableContentTypes = nil
        let callbacks = Callbacks<Any?>()
        manager.GET("bytes/64", success: callbacks.success, failure: callbacks.failure)
        #expect(try await callbacks.one().error?.kind == .decodingFailed)
    }

    @Test("the timeout is the serializer's timeoutInterval")
    func timeout() async throws {
        let manager = try makeManager()
        manager.requestSerializer.timeoutInterval = 1
        let callbacks = Callbacks<Any?>()
        manager.GET("delay/5", success: callbacks.success, failure: callbacks.failure)
        #expect(try await callbacks.one().error?.kind == .timedOut)
    }
}
