import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import SampleServer
import Synchronization
import Testing

/// Requests through the engine against the real sample server on 127.0.0.1: methods, bodies,
/// queues, decoding, and how many connections they use.
@Suite("Engine: requests and connections", .timeLimit(.minutes(2)))
struct EngineRequestTests {
    let client = HTTPClient.shared

    // MARK: Basics

    @Test func getReturnsTheFinalResponseWithTimings() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.endpoint("/get?a=1"))).get()
        #expect(response.statusCode == 200)
        #expect(response.httpVersion == .http1_1)
        #expect(response.mimeType == "application/json")
        #expect(response.timings.total > 0)
        #expect(response.timings.total >= response.timings.firstByte)
        let echo = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
        #expect(echo?["method"] as? String == "GET")
        let headers = echo?["headers"] as? [String: Any]
        let userAgent = headers?.first { $0.key.lowercased() == "user-agent" }?.value as? String
        #expect(userAgent?.hasPrefix("Chain/") == true)
    }

    @Test(arguments: [HTTPMethod.post, .put, .patch, .delete, "PROPFIND"])
    func methodsAndBodiesReachTheServer(method: HTTPMethod) async throws {
        var request = HTTPRequest(url: try TestServer.endpoint("/anything"), method: method)
        request.body = .data(Data("hello=world".utf8))
        request.headers["Content-Type"] = "application/x-www-form-urlencoded"
        let response = try await client.result(request).get()
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(echo["method"] as? String == method.rawValue)
        #expect(echo["bodyLength"] as? Int == 11)
    }

    @Test func headRequestHasNoBody() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.endpoint("/get"), method: .head)).get()
        #expect(response.statusCode == 200)
        #expect(response.body.isEmpty)
    }

    /// A transfer starts with a 1 KiB body buffer (`CurlTransfer.typicalBodyCapacity`), made on
    /// the sending thread; a larger `Content-Length` is reserved on the loop, and a chunked body
    /// (300-byte chunks here) grows as it comes. Every size around that first buffer must
    /// arrive whole and unchanged.
    @Test(arguments: [0, 1, 1023, 1024, 1025, 70_000])
    func bodiesAroundTheFirstBufferArriveIntact(size: Int) async throws {
        let expected = Data(SampleServer.deterministicBytes(count: size, seed: 5, offset: 0))
        for path in ["/bytes/\(size)?seed=5", "/stream-bytes/\(size)?seed=5&chunk_size=300"] {
            let response = try await client.result(HTTPRequest(url: TestServer.endpoint(path))).get()
            #expect(response.statusCode == 200, "\(path)")
            #expect(response.body == expected, "\(path): \(response.body.count) of \(size) bytes")
        }
    }

    @Test func emptyPostSendsContentLengthZero() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.endpoint("/post"), method: .post)).get()
        let echo = try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
        #expect(echo["bodyLength"] as? Int == 0)
    }

    @Test func anyStatusIsAResponseForTheCore() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.endpoint("/status/418"))).get()
        #expect(response.statusCode == 418)
    }

    @Test func completionRunsOnTheGivenQueueNeverTheLoopThread() async throws {
        let queue = DispatchQueue(label: "test.callbacks")
        let onQueue = Mutex<Bool?>(nil)
        _ = await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            client.send(HTTPRequest(url: (try? TestServer.endpoint("/get")) ?? URL(fileURLWithPath: "/")), queue: queue) { _ in
                dispatchPrecondition(condition: .onQueue(queue))
                onQueue.withLock { $0 = Thread.current.name != "chain.curl-loop" }
                continuation.resume()
            }
        }
        #expect(onQueue.withLock { $0 } == true)
    }

    @Test func gzipBodiesAreDecoded() async throws {
        let response = try await client.result(HTTPRequest(url: TestServer.endpoint("/gzip"))).get()
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(try JSONSerialization.jsonObject(with: response.body) is [String: Any])
    }

    // MARK: Connections

    @Test func hundredSequentialGetsUseOneConnection() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient()
            var newConnections = 0
            for index in 0..<100 {
                let response = try await client.result(HTTPRequest(url: server.baseURL.appendingPathComponent("get"))).get()
                #expect(response.statusCode == 200, "request \(index)")
                newConnections += response.timings.newConnections
            }
            #expect(server.acceptedConnections == 1)
            #expect(newConnections == 1)
        }
    }

    @Test func twoHundredRequestsInFlightAllComplete() async throws {
        try await withPrivateServer { server in
            let client = HTTPClient(configuration: .init(maximumConnectionsPerHost: 16))
            let statuses = await withTaskGroup(of: Int.self) { group in
                for index in 0..<200 {
                    group.addTask {
                        let url = server.baseURL.appendingPathComponent("anything/\(index)")
                        return (try? await client.result(HTTPRequest(url: url)).get().statusCode) ?? -1
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
            #expect(server.acceptedConnections <= 16)
        }
    }
}
