import AFStyle
import Chain
import Foundation
import SampleServer
import Synchronization
import Testing
import TestSupport

private struct User: Decodable, Sendable, Equatable {
    let id: String
    let name: String
}

@Suite("Front-end parity", .timeLimit(.minutes(2)), .serialized)
struct FrontEndParityTests {
    /// Runs one AFStyle call and waits for its final callback.
    private func afCall(_ start: (@escaping @Sendable () -> Void) -> Void) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            start { continuation.resume() }
        }
    }

    @Test func chainAndAFStyleReportTheSameHookEvents() async throws {
        let base = try TestServer.baseURL
        let chainRecorder = MarkedRecorder(marker: "via=chain")
        let afRecorder = MarkedRecorder(marker: "via=af")
        Hooks.shared.add(chainRecorder)
        Hooks.shared.add(afRecorder)
        defer {
            Hooks.shared.remove(chainRecorder)
            Hooks.shared.remove(afRecorder)
        }

        // Chain
        let envelope = Envelope.errcode
        _ = try await Request.url(base.appendingPathComponent("user/101")).query(["via": "chain"]).value(User.self)
        _ = try? await Request.url(base.appendingPathComponent("status/404")).query(["via": "chain"]).data()
        try await Request.url(base.appendingPathComponent("envelope/result")).query(["via": "chain"]).method(.post)
            .params(["a": 1]).envelope(envelope).response()
        _ = try? await Request.url(base.appendingPathComponent("envelope/fail")).query(["via": "chain"])
            .envelope(envelope).response()

        // AFStyle: the same four calls.
        let manager = HTTPSessionManager(baseURL: base)
        await afCall { done in
            manager.GET("user/101?via=af", as: User.self, success: { _, _ in done() }, failure: { _, _ in done() })
        }
        manager.responseSerializer = .data
        await afCall { done in
            manager.GET("status/404?via=af", success: { _, _ in done() }, failure: { _, _ in done() })
        }
        manager.responseSerializer = .json
        manager.envelope = envelope
        await afCall { done in
            manager.POST("envelope/result?via=af", parameters: ["a": 1], success: { _, _ in done() }, failure: { _, _ in done() })
        }
        await afCall { done in
            manager.GET("envelope/fail?via=af", success: { _, _ in done() }, failure: { _, _ in done() })
        }

        #expect(chainRecorder.isBalanced)
        #expect(afRecorder.isBalanced)
        #expect(chainRecorder.events.count == 8)
        #expect(chainRecorder.events == afRecorder.events, "Chain: \(chainRecorder.events)\nAFStyle: \(afRecorder.events)")
    }

    @Test func fileFirstDeliversTheSameSequenceThroughBothFrontEnds() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chain-parity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let chainCache = ResponseCache(directory: directory.appendingPathComponent("chain"))
        let afCache = ResponseCache(directory: directory.appendingPathComponent("af"))

        var configuration = ChainConfiguration()
        configuration.cache = chainCache
        let chainRequest = Request.url(server.baseURL.appendingPathComponent("user/101")).configuration(configuration)
            .cache(.fileFirst)
        func chainSources() async -> [String] {
            var sources: [String] = []
            for await delivery in chainRequest.deliveries(User.self) {
                switch delivery.result {
                case .success: sources.append("\(delivery.source.rawValue):ok")
                case .failure(let error): sources.append("\(delivery.source.rawValue):\(error.kind)")
                }
            }
            return sources
        }

        let manager = HTTPSessionManager(baseURL: server.baseURL)
        manager.responseCache = afCache
        manager.cachePolicy = .fileFirst
        func afSources() async -> [String] {
            let sources = Mutex<[String]>([])
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                manager.GET("user/101", as: User.self, success: { task, _ in
                    let source = task.response?.source ?? .network
                    sources.withLock { $0.append("\(source.rawValue):ok") }
                    if source != .cache { continuation.resume() }
                }, failure: { _, error in
                    sources.withLock { $0.append("network:\(error.kind)") }
                    continuation.resume()
                })
            }
            return sources.withLock { $0 }
        }

        // A miss: one delivery, from the network. Then a hit: the stored copy, then the network.
        let chainFirst = await chainSources()
        let afFirst = await afSources()
        #expect(chainFirst == ["network:ok"])
        #expect(afFirst == chainFirst)
        let chainSecond = await chainSources()
        let afSecond = await afSources()
        #expect(chainSecond == ["cache:ok", "network:ok"])
        #expect(afSecond == chainSecond)

        // The server is gone: the stored copy, then the failure, so the caller knows it is stale.
        server.stop()
        let chainOffline = await chainSources()
        let afOffline = await afSources()
        #expect(chainOffline == ["cache:ok", "network:cannotConnect"])
        #expect(afOffline == chainOffline)
    }
}
