import AFStyle
import Chain
import ChainModels
import ChainTesting
import Foundation
import Synchronization
import Testing

private let userJSON = #"{"userId": 7, "name": "Li Lei 李雷", "avatar": null, "vip": 1, "birthday": 0}"#

/// The outcome of an AFStyle call as plain values, so a test can await it.
private enum Outcome: Sendable {
    case object(name: String?)
    case array(names: [String?])
    case failure(NetworkError.Kind, String)
}

@Suite("ObjectMapper front ends", .timeLimit(.minutes(1)))
struct MappableFrontEndTests {
    private func chain(_ server: MockServer, _ path: String) -> Request {
        Request.url(server.url(path))
    }

    @Test("Chain: responseObject and the async object(_:) map a class model")
    func chainObject() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(.json(userJSON))
        server.enqueue(.json(userJSON))
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<String?, NetworkError>, Never>) in
            chain(server, "user").responseObject(User.self) { result in continuation.resume(returning: result.map(\.name)) }
        }
        #expect(try result.get() == "Li Lei 李雷")
        let user = try await chain(server, "user").object(User.self)
        #expect(user.userId == 7 && user.vip && user.avatar == nil && user.birthday == Date(timeIntervalSince1970: 0))
    }

    @Test("Chain: arrays, envelope payloads and key paths")
    func chainArrayAndEnvelope() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(.json("[\(userJSON), {\"name\": \"second\"}]"))
        server.enqueue(.json(#"{"errcode": 0, "errmsg": "ok", "data": \#(userJSON)}"#))
        server.enqueue(.json(#"{"errcode": 0, "data": {"list": [\#(userJSON)]}}"#))
        let users = try await chain(server, "users").array(User.self)
        #expect(users.map(\.name) == ["Li Lei 李雷", "second"])
        let wrapped = try await chain(server, "wrapped").envelope(.errcode).object(User.self)
        #expect(wrapped.userId == 7)
        let listed = try await chain(server, "listed").envelope(.errcode).keyPath("data.list").array(User.self)
        #expect(listed.count == 1)
    }

    @Test("Chain: a business failure, a body that is not JSON, the wrong kind, a 500")
    func chainFailures() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(.json(#"{"errcode": 40001, "errmsg": "token expired", "data": null}"#))
        server.enqueue(.text("<html>oops</html>"))
        server.enqueue(.json(#"[1, 2]"#))
        server.enqueue(.json(#"{"errcode": 0, "data": [{"id": 1}, 2]}"#))
        server.enqueue(.json(#"{"error": "boom"}"#, status: 500))
        await #expect(throws: NetworkError.self) { try await chain(server, "a").envelope(.errcode).object(User.self) }
        do {
            _ = try await chain(server, "b").object(User.self)
            Issue.record("a body that is not JSON must fail")
        } catch {
            #expect(error.kind == .decodingFailed)
            #expect(error.message.contains("User") && error.message.contains("not JSON"))
        }
        do {
            _ = try await chain(server, "c").object(User.self)
            Issue.record("an array is not an object")
        } catch {
            #expect(error.kind == .decodingFailed)
        }
        do {
            _ = try await chain(server, "d").envelope(.errcode).array(User.self)
            Issue.record("an element that is not an object fails the array")
        } catch {
            #expect(error.kind == .decodingFailed)
        }
        do {
            _ = try await chain(server, "e").object(User.self)
            Issue.record("a 500 must fail")
        } catch {
            #expect(error.kind == .unacceptableStatus(500))
        }
    }

    @Test("Chain: a model whose init?(map:) returns nil is a decoding failure naming it")
    func chainRejected() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(.json(#"{"label": "no id"}"#))
        do {
            _ = try await chain(server, "tag").object(Tag.self)
            Issue.record("a rejected model must fail")
        } catch {
            #expect(error.kind == .decodingFailed)
            #expect(error.message.contains("Tag") && error.message.contains("init?(map:) returned nil"))
        }
    }

    @Test("Chain: a business failure carries the envelope's code")
    func chainBusiness() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(.json(#"{"errcode": 40001, "errmsg": "token expired", "data": null}"#))
        do {
            _ = try await chain(server, "a").envelope(.errcode).object(User.self)
            Issue.record("a business failure must fail")
        } catch {
            #expect(error.kind == .business(code: "40001", message: "token expired"))
        }
    }

    @Test("Chain: .fileFirst delivers the stored copy and the fresh one, each its own model")
    func chainFileFirst() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chain-mapper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ChainConfiguration()
        configuration.cache = ResponseCache(directory: directory)
        server.enqueue(.json(userJSON))
        server.enqueue(.json(#"{"userId": 8, "name": "fresh"}"#))
        let request = chain(server, "user").configuration(configuration).cache(.fileFirst)
        #expect(try await request.object(User.self).userId == 7)
        let names = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            let seen = Mutex<[String]>([])
            request.responseObject(User.self) { result in
                let all = seen.withLock { seen in
                    seen.append((try? result.get().name) ?? "failed")
                    return seen
                }
                if all.count == 2 { continuation.resume(returning: all) }
            }
        }
        #expect(names == ["Li Lei 李雷", "fresh"])
    }

    @Test("Chain: cancelling the Swift task cancels the call")
    func chainCancel() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse(options: [.noResponse]))
        let request = chain(server, "slow")
        // Cancelled before or after the request goes out (the pool decides), the call ends `.cancelled`.
        let task = Task { try await request.object(User.self).userId }
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("a cancelled call must throw")
        } catch let error as NetworkError {
            #expect(error.kind == .cancelled)
        }
    }

    private func run(_ start: (@escaping @Sendable (Outcome) -> Void) -> Void) async -> Outcome {
        await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
            start { continuation.resume(returning: $0) }
        }
    }

    @Test("AFStyle: every verb maps an object and an array")
    func afVerbs() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        let manager = HTTPSessionManager(baseURL: server.baseURL)
        let fail: @Sendable (@escaping @Sendable (Outcome) -> Void) -> HTTPSessionManager.FailureHandler = { done in
            { _, error in done(.failure(error.kind, error.message)) }
        }
        for method in [HTTPMethod.get, .post, .put, .patch, .delete] {
            server.enqueue(.json(userJSON))
            let outcome = await run { done in
                manager.dataTask(method, "user", object: User.self, success: { _, user in done(.object(name: user.name)) },
                                 failure: fail(done))
            }
            guard case .object(let name) = outcome else { Issue.record("\(method): \(outcome)"); continue }
            #expect(name == "Li Lei 李雷")
            #expect(try await server.takeRequest().method == method)
        }
        server.enqueue(.json("[\(userJSON)]"))
        server.enqueue(.json(userJSON))
        server.enqueue(.json("[\(userJSON)]"))
        server.enqueue(.json(userJSON))
        server.enqueue(.json("[\(userJSON)]"))
        let outcomes = [
            await run { done in manager.GET("u", array: User.self, success: { _, users in done(.array(names: users.map(\.name))) }, failure: fail(done)) },
            await run { done in manager.POST("u", parameters: ["a": 1], object: User.self, success: { _, user in done(.object(name: user.name)) }, failure: fail(done)) },
            await run { done in manager.PUT("u", array: User.self, success: { _, users in done(.array(names: users.map(\.name))) }, failure: fail(done)) },
            await run { done in manager.PATCH("u", object: User.self, success: { _, user in done(.object(name: user.name)) }, failure: fail(done)) },
            await run { done in manager.DELETE("u", array: User.self, success: { _, users in done(.array(names: users.map(\.name))) }, failure: fail(done)) },
        ]
        for (offset, outcome) in outcomes.enumerated() {
            switch outcome {
            case .object(let name): #expect(offset % 2 == 1 && name == "Li Lei 李雷")
            case .array(let names): #expect(offset % 2 == 0 && names == ["Li Lei 李雷"])
            case .failure(let kind, let message): Issue.record("\(offset): \(kind) \(message)")
            }
        }
    }

    @Test("AFStyle: the manager's envelope, a business failure, not JSON, a 500, a rejected model")
    func afEnvelopeAndFailures() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        let manager = HTTPSessionManager(baseURL: server.baseURL)
        manager.envelope = .errcode
        server.enqueue(.json(#"{"errcode": 0, "data": \#(userJSON)}"#))
        server.enqueue(.json(#"{"errcode": 40001, "errmsg": "token expired"}"#))
        server.enqueue(.json(#"{"errcode": 0, "data": {"list": [\#(userJSON), {"name": "x"}]}}"#))
        func object(_ path: String, keyPath: String? = nil) async -> Outcome {
            await run { done in
                manager.GET(path, object: User.self, keyPath: keyPath, success: { _, user in done(.object(name: user.name)) },
                            failure: { _, error in done(.failure(error.kind, error.message)) })
            }
        }
        guard case .object(let name) = await object("ok") else { Issue.record("the payload must map"); return }
        #expect(name == "Li Lei 李雷")
        guard case .failure(let kind, _) = await object("business") else { Issue.record("a business failure"); return }
        #expect(kind == .business(code: "40001", message: "token expired"))
        let listed = await run { done in
            manager.GET("list", array: User.self, keyPath: "data.list", success: { _, users in done(.array(names: users.map(\.name))) },
                        failure: { _, error in done(.failure(error.kind, error.message)) })
        }
        guard case .array(let names) = listed else { Issue.record("the key path must map: \(listed)"); return }
        #expect(names == ["Li Lei 李雷", "x"])

        manager.envelope = nil
        server.enqueue(.text("not json", headers: ["Content-Type": "application/json"]))
        server.enqueue(.json(#"{"error": 1}"#, status: 500))
        server.enqueue(.json(#"{"label": "no id"}"#))
        guard case .failure(let notJSON, let message) = await object("text") else { Issue.record("not JSON must fail"); return }
        #expect(notJSON == .decodingFailed && message.contains("not JSON"))
        guard case .failure(let status, _) = await object("error") else { Issue.record("a 500 must fail"); return }
        #expect(status == .unacceptableStatus(500))
        let rejected = await run { done in
            manager.GET("tag", object: Tag.self, success: { _, _ in done(.object(name: nil)) },
                        failure: { _, error in done(.failure(error.kind, error.message)) })
        }
        guard case .failure(let rejectedKind, let rejectedMessage) = rejected else { Issue.record("a rejected model must fail"); return }
        #expect(rejectedKind == .decodingFailed && rejectedMessage.contains("init?(map:) returned nil"))
    }

    @Test("AFStyle: .fileFirst delivers twice, and a cancelled task fails with .cancelled")
    func afFileFirstAndCancel() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("af-mapper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = HTTPSessionManager(baseURL: server.baseURL)
        manager.responseCache = ResponseCache(directory: directory)
        manager.cachePolicy = .fileFirst
        server.enqueue(.json(userJSON))
        server.enqueue(.json(#"{"userId": 8, "name": "fresh"}"#))
        _ = await run { done in
            manager.GET("user", object: User.self, success: { _, user in done(.object(name: user.name)) },
                        failure: { _, error in done(.failure(error.kind, error.message)) })
        }
        let names = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
            let seen = Mutex<[String]>([])
            manager.GET("user", object: User.self, success: { task, user in
                let all = seen.withLock { seen in
                    seen.append("\(task.response?.source.rawValue ?? "?"):\(user.name ?? "")")
                    return seen
                }
                if all.count == 2 { continuation.resume(returning: all) }
            }, failure: { _, error in
                continuation.resume(returning: ["failed: \(error)"])
            })
        }
        #expect(names == ["cache:Li Lei 李雷", "network:fresh"])

        manager.cachePolicy = nil
        server.enqueue(MockResponse(options: [.noResponse]))
        let cancelled = await withCheckedContinuation { (continuation: CheckedContinuation<NetworkError.Kind?, Never>) in
            let task = manager.GET("slow", object: User.self, success: { _, _ in continuation.resume(returning: nil) },
                                   failure: { _, error in continuation.resume(returning: error.kind) })
            task?.cancel()
        }
        #expect(cancelled == .cancelled)
    }
}
