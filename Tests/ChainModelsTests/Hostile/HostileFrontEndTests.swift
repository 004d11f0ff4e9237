import AFStyle
import Chain
import ChainModels
import ChainTesting
import Foundation
import Synchronization
import Testing
import TestSupport

private final class HItem: Mappable {
    var id: Int?
    var name: String?
    var gzipped = false
    var method: String?
    required init?(map: Map) {}
    func mapping(map: Map) {
        id <- map["id"]
        name <- map["name"]
        gzipped <- map["gzipped"]
        method <- map["method"]
    }
}

@Suite("Hostile: ObjectMapper models through the front ends", .timeLimit(.minutes(2)))
struct HostileFrontEndTests {
    private func kind(_ body: () async throws -> Void) async -> NetworkError.Kind? {
        do {
            try await body()
            return nil
        } catch {
            return (error as? NetworkError)?.kind
        }
    }

    @Test("an empty 200, a 204, invalid UTF-8 and truncated JSON fail with .decodingFailed")
    func badBodies() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json"]))
        server.enqueue(MockResponse(status: 204))
        server.enqueue(MockResponse(headers: ["Content-Type": "application/json"], body: Data([0x7B, 0x22, 0x6E, 0x61, 0x6D, 0x65, 0x22, 0x3A, 0x22, 0xFF, 0xFE, 0x22, 0x7D])))
        server.enqueue(.json(#"{"id": 7, "name": "Li"#))
        server.enqueue(MockResponse(status: 204))
        let url = server.url("/x")
        #expect(await kind { _ = try await Request.url(url).object(HItem.self) } == .decodingFailed)
        #expect(await kind { _ = try await Request.url(url).object(HItem.self) } == .decodingFailed)
        #expect(await kind { _ = try await Request.url(url).object(HItem.self) } == .decodingFailed)
        #expect(await kind { _ = try await Request.url(url).array(HItem.self) } == .decodingFailed)
        let manager = HTTPSessionManager(baseURL: server.baseURL)
        let afKind = await withCheckedContinuation { (continuation: CheckedContinuation<NetworkError.Kind?, Never>) in
            manager.GET("x", object: HItem.self, success: { _, _ in continuation.resume(returning: nil) },
                        failure: { _, error in continuation.resume(returning: error.kind) })
        }
        #expect(afKind == .decodingFailed)
    }

    @Test("a gzip body is inflated before mapping")
    func gzip() async throws {
        let item = try await Request.url(try TestServer.endpoint("/gzip")).object(HItem.self)
        #expect(item.gzipped && item.method == "GET")
    }

    @Test("a body of 8 MiB maps every element")
    func largeBody() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        let filler = String(repeating: "x", count: 90)
        let count = 80_000
        let body = "{\"items\": [" + (0..<count).map { "{\"id\": \($0), \"name\": \"\(filler)\"}" }.joined(separator: ",") + "]}"
        #expect(body.utf8.count > 8 << 20)
        server.enqueue(.json(body))
        let items = try await Request.url(server.url("/big")).keyPath("items").array(HItem.self)
        #expect(items.count == count)
        #expect(items.last?.id == count - 1)
    }

    @Test(".fileFirst twice: each delivery maps its own instance")
    func fileFirstTwice() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-mapper-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = ChainConfiguration()
        configuration.cache = ResponseCache(directory: directory)
        server.enqueue(.json(#"{"id": 1, "name": "first"}"#))
        server.enqueue(.json(#"{"id": 2, "name": "second"}"#))
        server.enqueue(.json(#"{"id": 3, "name": "third"}"#))
        let request = Request.url(server.url("/item")).configuration(configuration).cache(.fileFirst)
        #expect(try await request.object(HItem.self).id == 1)
        for expected in [["1:first", "2:second"], ["2:second", "3:third"]] {
            let seen = await withCheckedContinuation { (continuation: CheckedContinuation<[String], Never>) in
                let seen = Mutex<[(ObjectIdentifier, String)]>([])
                request.responseObject(HItem.self) { result in
                    let all = seen.withLock { seen in
                        switch result {
                        case .success(let item):
                            item.name = (item.name ?? "") + "!" // a shared instance would show the mark twice
                            seen.append((ObjectIdentifier(item), "\(item.id ?? -1):\(item.name ?? "")"))
                        case .failure(let error):
                            seen.append((ObjectIdentifier(HostileFrontEndTests.self), "failed \(error)"))
                        }
                        return seen
                    }
                    if all.count == 2 {
                        #expect(all[0].0 != all[1].0)
                        continuation.resume(returning: all.map(\.1))
                    }
                }
            }
            #expect(seen == expected.map { $0 + "!" })
        }
    }

    @Test("cancel during a throttled body ends .cancelled")
    func cancelDuringBody() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        let body = "[" + Array(repeating: #"{"id": 1}"#, count: 20_000).joined(separator: ",") + "]"
        server.enqueue(.json(body, options: [.throttle(bytesPerSecond: 16 * 1024)]))
        let request = Request.url(server.url("/slow"))
        let task = Task { try await request.array(HItem.self).count }
        _ = try await server.takeRequest(timeout: 60)
        task.cancel()
        do {
            let count = try await task.value
            Issue.record("a cancelled call must throw, got \(count) items")
        } catch let error as NetworkError {
            #expect(error.kind == .cancelled)
        }
    }

    @Test("many tasks map class models at once, each gets its own answer")
    func concurrentClasses() async throws {
        let server = try MockServer()
        defer { server.shutdown() }
        let calls = 40
        server.dispatcher = { request in
            let id = request.path.split(separator: "/").last.flatMap { Int($0) } ?? -1
            return .json(#"{"id": \#(id), "name": "n\#(id)"}"#)
        }
        let manager = HTTPSessionManager(baseURL: server.baseURL)
        let results = await withTaskGroup(of: String.self) { group in
            for index in 0..<calls {
                group.addTask {
                    if index.isMultiple(of: 2) {
                        let item = try? await Request.url(server.url("/item/\(index)")).object(HItem.self)
                        return "\(item?.id ?? -1):\(item?.name ?? "")"
                    }
                    return await withCheckedContinuation { continuation in
                        manager.GET("item/\(index)", object: HItem.self, success: { _, item in
                            continuation.resume(returning: "\(item.id ?? -1):\(item.name ?? "")")
                        }, failure: { _, error in continuation.resume(returning: "failed \(error)") })
                    }
                }
            }
            var all: [String] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(Set(results) == Set((0..<calls).map { "\($0):n\($0)" }))
    }
}
