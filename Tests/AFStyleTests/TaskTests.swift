import AFStyle
import Dispatch
import Foundation
import Synchronization
import Testing

/// Records the events of requests whose URL contains a marker, so the global hook (which
/// stays installed: `Hooks` can only remove every hook) never sees other tests' calls.
final class MarkedHook: HTTPHook {
    let marker: String
    let events = Recorder<String>()
    init(marker: String) { self.marker = marker }

    private func matches(_ context: HookContext) -> Bool { context.request.url.absoluteString.contains(marker) }
    func willSend(_ context: HookContext) { if matches(context) { events.append("willSend \(context.origin)") } }
    func didFinish(_ context: HookContext, response: HTTPResponse) {
        if matches(context) { events.append("didFinish \(context.origin) \(response.source)") }
    }
    func didFail(_ context: HookContext, error: NetworkError) {
        if matches(context) { events.append("didFail \(context.origin) \(error.kind)") }
    }
}

@Suite("Tasks, queues, hooks and the cache", .timeLimit(.minutes(2)))
struct TaskTests {
    @Test("cancel: failure with .cancelled exactly once; the task completes and leaves the manager")
    func cancel() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        let task = try #require(manager.GET("delay/20", success: callbacks.success, failure: callbacks.failure))
        #expect(task.state == .running)
        #expect(manager.tasks == [task])
        task.cancel()
        task.cancel()
        #expect(task.state == .canceling || task.state == .completed)
        let callback = try await callbacks.one()
        #expect(callback.error?.kind == .cancelled)
        #expect(callback.task === task)
        task.cancel()
        try await drain(manager)
        #expect(callbacks.count == 1)
        #expect(task.state == .completed)
        #expect(task.error?.kind == .cancelled)
        #expect(manager.tasks.isEmpty)
    }

    @Test("cancelAllTasks cancels every task in flight")
    func cancelAll() async throws {
        let manager = try makeManager()
        let callbacks = Callbacks<Any?>()
        for _ in 0..<5 { manager.GET("delay/20", success: callbacks.success, failure: callbacks.failure) }
        #expect(manager.tasks.count == 5)
        manager.cancelAllTasks()
        let results = await callbacks.next(5)
        #expect(results.allSatisfy { $0.error?.kind == .cancelled })
        #expect(manager.tasks.isEmpty)
    }

    @Test("many concurrent calls on one manager while its settings change: each succeeds once")
    func concurrency() async throws {
        let manager = try makeManager()
        let count = 60
        let callbacks = Callbacks<Any?>()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    manager.GET("anything/\(index)", parameters: ["i": index], success: callbacks.success,
                                failure: callbacks.failure)
                }
                group.addTask {
                    manager.requestSerializer.setValue("\(index)", forHTTPHeaderField: "X-Index")
                    manager.requestSerializer.timeoutInterval = 30
                }
            }
        }
        let results = await callbacks.next(count)
        #expect(results.allSatisfy { $0.error == nil })
        let paths = Set(results.compactMap { ($0.value as? [String: Any])?["path"] as? String })
        #expect(paths == Set((0..<count).map { "/anything/\($0)" }))
        try await drain(manager)
        #expect(callbacks.count == count)
        #expect(manager.tasks.isEmpty)
    }

    @Test("callbacks run on the completion queue: a private serial queue by default, or the one set")
    func completionQueue() async throws {
        let manager = try makeManager()
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "afstyle.tests.completion")
        queue.setSpecific(key: key, value: 1)

        let defaultQueue = Callbacks<Any?>(expectingQueueKey: key)
        manager.GET("get", success: defaultQueue.success, failure: defaultQueue.failure)
        #expect(try await defaultQueue.one().onExpectedQueue == false)
        #expect(manager.completionQueue == nil)

        manager.completionQueue = queue
        let custom = Callbacks<Any?>(expectingQueueKey: key)
        let progressOnQueue = Recorder<Bool>()
        manager.GET("bytes/10", progress: { _ in progressOnQueue.append(DispatchQueue.getSpecific(key: key) != nil) },
                    success: custom.success, failure: custom.failure)
        let callback = try await custom.one()
        #expect(callback.onExpectedQueue == true)
        #expect(progressOnQueue.values.allSatisfy { $0 })

        let invalid = Callbacks<Any?>(expectingQueueKey: key)
        manager.GET("http://[::1", success: invalid.success, failure: invalid.failure)
        #expect(try await invalid.one().onExpectedQueue == true)
    }

    @Test("every call reports to Hooks.shared with origin AFStyle")
    func hooks() async throws {
        let marker = "hooked-\(UUID().uuidString)"
        let hook = MarkedHook(marker: marker)
        Hooks.shared.add(hook)
        let manager = try makeManager()
        let ok = Callbacks<Any?>()
        manager.GET("anything/\(marker)", success: ok.success, failure: ok.failure)
        _ = try await ok.one()
        let failed = Callbacks<Any?>()
        manager.GET("status/500?m=\(marker)", success: failed.success, failure: failed.failure)
        _ = try await failed.one()
        #expect(hook.events.values == ["willSend AFStyle", "didFinish AFStyle network",
                                       "willSend AFStyle", "didFail AFStyle unacceptableStatus(500)"])
    }

    @Test(".fileFirst calls success twice on a hit (cache, then network); .cacheOnly and per-call overrides")
    func cachePolicies() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = try makeManager(cache: ResponseCache(directory: directory))
        manager.cachePolicy = .fileFirst
        let path = "anything/cached-\(UUID().uuidString)"

        let miss = Callbacks<Any?>()
        manager.GET(path, success: miss.success, failure: miss.failure)
        #expect(try await miss.one().source == .network)

        let hit = Callbacks<Any?>()
        let task = manager.GET(path, success: hit.success, failure: hit.failure)
        let deliveries = await hit.next(2)
        #expect(deliveries.map(\.source) == [.cache, .network])
        #expect(deliveries.allSatisfy { ($0.value as? [String: Any])?["path"] as? String == "/\(path)" })
        #expect(task?.state == .completed)
        try await drain(manager)
        #expect(hit.count == 2)

        let cacheOnly = Callbacks<Any?>()
        manager.GET(path, cachePolicy: .cacheOnly, success: cacheOnly.success, failure: cacheOnly.failure)
        #expect(try await cacheOnly.one().source == .cache)

        let missing = Callbacks<Any?>()
        manager.GET("anything/never-stored-\(UUID().uuidString)", cachePolicy: .cacheOnly, success: missing.success,
                    failure: missing.failure)
        #expect(try await missing.one().error?.kind == .cacheMiss)
    }

    @Test("business failures and HTTP errors are never cached")
    func failuresNotCached() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = try makeManager(cache: ResponseCache(directory: directory))
        manager.envelope = .errcode
        for path in ["envelope/fail", "status/500"] {
            let first = Callbacks<Any?>()
            manager.GET(path, success: first.success, failure: first.failure)
            #expect(try await first.one().error != nil)
            let cached = Callbacks<Any?>()
            manager.GET(path, cachePolicy: .cacheOnly, success: cached.success, failure: cached.failure)
            #expect(try await cached.one().error?.kind == .cacheMiss)
        }
    }
}

@Suite("Task description", .timeLimit(.minutes(2)))
struct TaskDescriptionTests {
    @Test("curlDescription renders the request with the password redacted")
    func curl() async throws {
        let manager = try makeManager()
        manager.requestSerializer.setAuthorizationHeader(username: "wiki", password: "secret")
        let callbacks = Callbacks<Any?>()
        let task = try #require(manager.POST("anything/curl", parameters: ["password": "secret", "name": "wiki"],
                                             success: callbacks.success, failure: callbacks.failure))
        _ = try await callbacks.one()
        let curl = task.curlDescription
        #expect(curl.hasPrefix("curl"))
        #expect(curl.contains("/anything/curl"))
        #expect(!curl.contains("secret"))
        #expect(!curl.contains("d2lraTpzZWNyZXQ="))
        #expect(task.description.contains("POST"))
    }
}
