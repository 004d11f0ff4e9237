import AFStyle
import Chain
import ChainModels
import Foundation
import Testing
import TestSupport

/// A HandyJSON model of the same document: `level` is never sent, `vip` only for one user.
private struct Member: HandyJSON, Equatable, Sendable {
    var userId = 0
    var name = ""
    var vip = false
    var level = 1
}

/// One AFStyle callback as plain values.
private enum Delivery: Sendable, Equatable {
    case users(names: [String?], source: ResponseSource?)
    case failure(transport: Bool)
}

/// The ported models against a server we did not write: Debian's nginx serving the
/// documents' users over TLS and HTTP/2, with the cache in between.
@Suite("Models from nginx", .timeLimit(.minutes(2)))
struct ModelsFromNginxTests {
    private let names: [String?] = ["Li Lei 李雷", "Han Meimei"]

    @Test("Chain: ObjectMapper users over HTTP/2; .http revalidates and nginx's 304 maps from the stored body")
    func objectMapperRevalidated() async throws {
        let nginx = try await NginxPeer.start()
        defer { nginx.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ChainConfiguration(envelope: .errcode, cache: ResponseCache(directory: directory))
        configuration.tls = TLSOptions(caFile: nginx.caFile)
        configuration.proxy = .none
        let request = configuration.url(nginx.tlsURL("/models/users.json")).keyPath("data.list").cache(.http)

        let fresh = try await request.array(User.self)
        let revalidated = try await request.array(User.self)
        for users in [fresh, revalidated] {
            #expect(users.map(\.name) == names)
            #expect(users.map(\.userId) == [7, 8])
            #expect(users.map(\.vip) == [true, false], "a missing key leaves the declared default")
            #expect(users.first?.birthday == Date(timeIntervalSince1970: 0) && users.last?.birthday == nil)
        }
        let log = nginx.accessLog().filter { $0.target == "/models/users.json" }
        #expect(log.map(\.status) == [200, 304], "the second call is a conditional request nginx matched")
        #expect(log.allSatisfy { $0.request.hasSuffix("HTTP/2.0") })
    }

    @Test("Chain: a HandyJSON model keeps its defaults for the keys nginx's document leaves out")
    func handyJSONDefaults() async throws {
        let nginx = try await NginxPeer.start()
        defer { nginx.stop() }
        let members = try await Request.url(nginx.httpURL("/models/users.json")).proxy(.none)
            .envelope(.errcode).keyPath("data.list").value([Member].self)
        #expect(members == [Member(userId: 7, name: "Li Lei 李雷", vip: true, level: 1),
                            Member(userId: 8, name: "Han Meimei", vip: false, level: 1)])
    }

    @Test("AFStyle: .fileFirst maps the stored copy, then reports nginx gone as a transport failure")
    func afStyleFileFirstWithNginxStopped() async throws {
        let nginx = try await NginxPeer.start()
        defer { nginx.stop() }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let manager = HTTPSessionManager(baseURL: nginx.tlsURL("/"))
        manager.tlsOptions = TLSOptions(caFile: nginx.caFile)
        manager.proxy = .none
        manager.responseCache = ResponseCache(directory: directory)
        manager.envelope = .errcode
        manager.cachePolicy = .fileFirst
        let (deliveries, sink) = AsyncStream.makeStream(of: Delivery.self)
        func get() {
            manager.GET("models/users.json", array: User.self, keyPath: "data.list",
                        success: { task, users in sink.yield(.users(names: users.map(\.name), source: task.response?.source)) },
                        failure: { _, error in sink.yield(.failure(transport: error.isTransportFailure)) })
        }
        var iterator = deliveries.makeAsyncIterator()

        get()
        #expect(await iterator.next() == .users(names: names, source: .network), "a miss: the network, once")
        nginx.stop()
        get()
        #expect(await iterator.next() == .users(names: names, source: .cache))
        #expect(await iterator.next() == .failure(transport: true))
        sink.finish()
        #expect(await iterator.next() == nil, "two deliveries on a hit, no more")
    }
}
