import AFStyle
import Foundation
import Testing

@Suite("Verbs", .timeLimit(.minutes(2)))
struct VerbTests {
    @Test("GET: success gets the task and the JSON; the task knows the request and response")
    func get() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        let task = try #require(manager.GET("user/101", parameters: nil, headers: nil, progress: nil,
                                            success: callbacks.success, failure: callbacks.failure))
        let callback = try await callbacks.one()
        let user = try #require(callback.value as? [String: Any])
        #expect(user["name"] as? String == "wiki")
        #expect(user["age"] as? Int == 18)
        #expect(callback.task === task)
        #expect(task.state == .completed)
        #expect(task.response?.statusCode == 200)
        #expect(task.error == nil)
        #expect(task.originalRequest.url.path == "/user/101")
        #expect(task.currentRequest.url == task.originalRequest.url)
        #expect(task.originalRequest.method == .get)
    }

    @Test("GET with parameters: the query")
    func getWithQuery() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        manager.GET("user/query", parameters: ["q": "AL"], success: callbacks.success, failure: callbacks.failure)
        let callback = try await callbacks.one()
        let users = try #require(callback.value as? [[String: Any]])
        #expect(users.map { $0["name"] as? String } == ["alice"])
    }

    @Test("POST login: form body by default, JSON with the JSON serializer, 401 as a failure")
    func login() async throws {
        let manager = try makeManager()
        let form = Callbacks<Any?>()
        manager.POST("account/login", parameters: ["username": "wiki", "password": "secret"],
                     success: form.success, failure: form.failure)
        #expect(try await form.dictionary()["id"] as? String == "101")

        manager.requestSerializer = .json
        let json = Callbacks<Any?>()
        manager.POST("account/login", parameters: ["username": "alice", "password": "wonderland"],
                     success: json.success, failure: json.failure)
        #expect(try await json.dictionary()["id"] as? String == "102")

        let wrong = Callbacks<Any?>()
        manager.POST("account/login", parameters: ["username": "alice", "password": "nope"],
                     success: wrong.success, failure: wrong.failure)
        let error = try #require(try await wrong.one().error)
        #expect(error.kind == .unacceptableStatus(401))
        #expect(error.message.contains("invalid username or password"))
    }

    @Test("every verb sends its method, with parameters where AFNetworking puts them", arguments: [
        HTTPMethod.get, .post, .put, .patch, .delete,
    ])
    func verbs(_ method: HTTPMethod) async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        let parameters: [String: Any] = ["name": "wiki", "n": 2]
        let path = "anything/verbs"
        switch method {
        case .get: manager.GET(path, parameters: parameters, success: callbacks.success, failure: callbacks.failure)
        case .post: manager.POST(path, parameters: parameters, success: callbacks.success, failure: callbacks.failure)
        case .put: manager.PUT(path, parameters: parameters, success: callbacks.success, failure: callbacks.failure)
        case .patch: manager.PATCH(path, parameters: parameters, success: callbacks.success, failure: callbacks.failure)
        default: manager.DELETE(path, parameters: parameters, success: callbacks.success, failure: callbacks.failure)
        }
        let echo = try await callbacks.dictionary()
        #expect(echo["method"] as? String == method.rawValue)
        let placed = method.encodesParametersInURL ? echo["args"] : echo["form"]
        let fields = try #require(placed as? [String: Any])
        #expect(fields["name"] as? String == "wiki")
        #expect(fields["n"] as? String == "2")
    }

    @Test("HEAD: success gets only the task")
    func head() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<SessionTask>()
        manager.HEAD("get", parameters: ["a": 1], headers: nil, success: { task in callbacks.success(task, task) },
                     failure: callbacks.failure)
        let callback = try await callbacks.one()
        let task = try #require(callback.value)
        #expect(task.response?.statusCode == 200)
        #expect(task.response?.body.isEmpty == true)
        #expect(task.originalRequest.url.query == "a=1")

        let missing = Callbacks<SessionTask>()
        manager.HEAD("status/404", success: { task in missing.success(task, task) }, failure: missing.failure)
        #expect(try await missing.one().error?.kind == .unacceptableStatus(404))
    }

    @Test("dataTask with any method")
    func anyMethod() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        manager.dataTask("PURGE", "anything/x", parameters: ["k": "v"], success: callbacks.success,
                         failure: callbacks.failure)
        let echo = try await callbacks.dictionary()
        #expect(echo["method"] as? String == "PURGE")
        #expect((echo["form"] as? [String: Any])?["k"] as? String == "v")
    }

    @Test("GET progress: download reports, monotonic, the last one the body size")
    func downloadProgress() async throws {
        let manager = try makeManager()
        manager.responseSerializer = .data
        let reports = Recorder<TransferProgress>()
        let callbacks = Callbacks<Any?>()
        let task = manager.GET("bytes/400000", progress: { reports.append($0) }, success: callbacks.success,
                               failure: callbacks.failure)
        #expect((try await callbacks.one().value as? Data)?.count == 400_000)
        let values = reports.values
        #expect(!values.isEmpty)
        #expect(values.allSatisfy { $0.direction == .download })
        #expect(values.map(\.completedBytes) == values.map(\.completedBytes).sorted())
        #expect(values.last?.completedBytes == 400_000)
        #expect(task?.progress?.completedBytes == 400_000)
        #expect(task?.downloadProgress?.completedBytes == 400_000)
    }
}
