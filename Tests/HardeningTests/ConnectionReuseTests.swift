import AFStyle
import Chain
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

// A pooled connection is reused only when it is clean, and a request reaches the server as
// often as its method allows: the hostile peer's `scenarios_conn.py` abuses idle kept-alive
// connections (a smuggled response) and drops reused ones after the request was written.
@Suite("Connection reuse", .timeLimit(.minutes(1)))
struct ConnectionReuseTests {
    /// `conn-smuggle` answers the first request, then writes a second, unrequested response on
    /// the idle connection; this waits (on another client, so on another connection) until it has.
    private func smuggle(_ peer: HostilePeer, id: String,
                         first: () async -> (status: Int?, error: NetworkError?)) async throws {
        let answer = await first()
        #expect(answer.error == nil, "the first request: \(String(describing: answer.error))")
        let ready = await HTTPClient().result(HTTPRequest(url: peer.url("/conn-wait/\(id)?id=\(id)")))
        try #require(ready.success?.statusCode == 200, "the peer did not smuggle its response")
    }

    private static let firstPaths = ["204": "/conn-smuggle/first?kind=204", "length": "/conn-smuggle/first?kind=length"]

    @Test(arguments: ["204", "length"])
    func aSmuggledResponseNeverAnswersTheNextRequest(kind: String) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = HTTPClient()
        let id = unique()
        try await smuggle(peer, id: id) {
            let result = await client.result(HTTPRequest(url: peer.url("\(Self.firstPaths[kind] ?? "")&id=\(id)")))
            return (result.success?.statusCode, result.failure)
        }
        let second = await client.result(HTTPRequest(url: peer.url("/conn-real/\(id)")))
        #expect(second.success.map { String(decoding: $0.body, as: UTF8.self) } == "real",
                "\(String(describing: second))")
        // Invisible to the caller: the stale connection was closed before the request went out,
        // and the request reached the server once, on a new connection.
        let recorded = peer.recordedRequests()
        let first = recorded.first { $0.scenario == "conn-smuggle" }
        let real = recorded.filter { $0.scenario == "conn-real" }
        #expect(real.count == 1)
        #expect(real.first?.connection != first?.connection)
    }

    @Test(arguments: ["204", "length"])
    func aSmuggledResponseNeverAnswersAChainRequest(kind: String) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let configuration = chainConfiguration(client: HTTPClient(), queue: DispatchQueue(label: "conn.chain"))
        let id = unique()
        try await smuggle(peer, id: id) {
            do throws(NetworkError) {
                _ = try await Request.url(peer.urlString("\(Self.firstPaths[kind] ?? "")&id=\(id)"))
                    .configuration(configuration).data()
                return (nil, nil)
            } catch {
                return (nil, error)
            }
        }
        var body: Data?
        do throws(NetworkError) {
            body = try await Request.url(peer.urlString("/conn-real/\(id)")).configuration(configuration).data()
        } catch {
            Issue.record("the second request failed: \(error.debugDescription)")
        }
        #expect(body.map { String(decoding: $0, as: UTF8.self) } == "real")
    }

    @Test(arguments: ["204", "length"])
    func aSmuggledResponseNeverAnswersAnAFStyleRequest(kind: String) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let manager = makeManager(client: HTTPClient(), queue: DispatchQueue(label: "conn.afstyle"))
        let id = unique()
        try await smuggle(peer, id: id) {
            let callbacks = AFCallbacks()
            manager.GET(peer.urlString("\(Self.firstPaths[kind] ?? "")&id=\(id)"), success: callbacks.success,
                        failure: callbacks.failure)
            let outcome = await callbacks.log.wait(for: 1).first
            return (nil, outcome?.error)
        }
        let texts = Recorder<String>()
        manager.GET(peer.urlString("/conn-real/\(id)"), success: { _, object in
            texts.append((object as? Data).map { String(decoding: $0, as: UTF8.self) } ?? "not data")
        }, failure: { _, error in texts.append("failure: \(error.debugDescription)") })
        let got = await texts.wait(for: 1)
        #expect(got == ["real"], "the peer read: \(peer.recordedRequests().map { "\($0.path) on connection \($0.connection)" })")
    }

    /// libcurl counts the re-sends of an easy handle ("Connection died, tried 5 times before
    /// giving up") and clears the count only when it gives up or the handle is reset: a pooled
    /// handle passed it on, and every sixth request to this peer failed.
    @Test func requestsThatLibcurlSentAgainDoNotMakeLaterOnesFail() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = HTTPClient()
        let id = unique()
        for index in 0..<14 {
            let result = await client.result(HTTPRequest(url: peer.url("/conn-drop-reused/\(id)/\(index)")))
            #expect(result.success?.statusCode == 200, "request \(index): \(String(describing: result.failure))")
        }
        // A request that died on its reused connection was sent again once, no more.
        let reads = readsPerPath(peer, prefix: "/conn-drop-reused/\(id)/")
        #expect(reads.values.allSatisfy { $0 <= 2 })
        #expect(reads.values.contains(2))
    }

    /// libcurl sends a request again on another pooled connection, which can be as dead as the
    /// first (a server that stopped closes them all): the one re-send goes on a fresh connection.
    @Test func theOneResendGoesOnAFreshConnectionNotAnotherPooledOne() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = HTTPClient()
        let id = unique()
        // Four pooled connections, each of which dies at its next request.
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<4 {
                group.addTask { _ = await client.result(HTTPRequest(url: peer.url("/conn-drop-reused/\(id)/warm-\(index)?delay=0.2"))) }
            }
        }
        for index in 0..<3 {
            let result = await client.result(HTTPRequest(url: peer.url("/conn-drop-reused/\(id)/\(index)")))
            #expect(result.success?.statusCode == 200, "request \(index): \(String(describing: result.failure))")
        }
        let reads = readsPerPath(peer, prefix: "/conn-drop-reused/\(id)/")
        #expect(reads.filter { !$0.key.contains("warm") }.values.allSatisfy { $0 <= 2 })
    }

    @Test func anIdempotentRequestWhoseReusedConnectionIsResetIsSentAgainOnce() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = HTTPClient()
        let id = unique()
        for index in 0..<8 {
            let result = await client.result(HTTPRequest(url: peer.url("/conn-reset-reused/\(id)/\(index)")))
            #expect(result.success?.statusCode == 200, "request \(index): \(String(describing: result.failure))")
        }
        let reads = readsPerPath(peer, prefix: "/conn-reset-reused/\(id)/")
        #expect(reads.values.allSatisfy { $0 <= 2 })
        #expect(reads.values.contains(2))
    }

    @Test func aPostWhoseReusedConnectionIsResetIsNotSentAgain() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = HTTPClient()
        let id = unique()
        var failures: [NetworkError] = []
        for index in 0..<8 {
            var request = HTTPRequest(url: peer.url("/conn-reset-reused/\(id)/\(index)"), method: .post)
            request.body = .data(Data("n=\(index)".utf8))
            if case .failure(let error) = await client.result(request) { failures.append(error) }
        }
        let reads = readsPerPath(peer, prefix: "/conn-reset-reused/\(id)/")
        #expect(reads.values.allSatisfy { $0 == 1 })
        #expect(!failures.isEmpty)
        #expect(failures.allSatisfy { $0.kind == .connectionLost })
    }

    /// How often the peer read each path under `prefix`.
    private func readsPerPath(_ peer: HostilePeer, prefix: String) -> [String: Int] {
        peer.recordedRequests(pathPrefix: prefix).reduce(into: [:]) { $0[$1.path, default: 0] += 1 }
    }

    @Test(arguments: [HTTPMethod.post, .patch])
    func aNonIdempotentRequestIsNeverSentTwice(method: HTTPMethod) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = HTTPClient()
        let id = unique()
        var failures: [NetworkError] = []
        for index in 0..<10 {
            var request = HTTPRequest(url: peer.url("/conn-drop-reused/\(id)/\(index)"), method: method)
            request.body = .data(Data("n=\(index)".utf8))
            if case .failure(let error) = await client.result(request) { failures.append(error) }
        }
        // Requests on reused connections died after the peer read them; none was read twice.
        let reads = readsPerPath(peer, prefix: "/conn-drop-reused/\(id)/")
        #expect(reads.count == 10)
        #expect(reads.values.allSatisfy { $0 == 1 })
        #expect(!failures.isEmpty)
        for error in failures {
            #expect(error.kind == .connectionLost)
            #expect(error.message.contains("may have reached the server"), "\(error.message)")
        }
    }

    @Test func aPostWithAnIdempotencyKeyIsSentAgainOnce() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = HTTPClient()
        let id = unique()
        for index in 0..<10 {
            var request = HTTPRequest(url: peer.url("/conn-drop-reused/\(id)/\(index)"), method: .post)
            request.body = .data(Data("n=\(index)".utf8))
            request.headers["Idempotency-Key"] = "\(id)-\(index)"
            let result = await client.result(request)
            #expect(result.success?.statusCode == 200, "request \(index): \(String(describing: result.failure))")
        }
        let reads = readsPerPath(peer, prefix: "/conn-drop-reused/\(id)/")
        #expect(reads.values.allSatisfy { $0 <= 2 })
        #expect(reads.values.contains(2))
    }
}
