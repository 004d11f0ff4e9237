import ChainTesting
import Foundation
import Testing

/// u17's rank list carries two business codes (`code` and `data.stateCode`): an envelope runs
/// every check in order and names the one that failed; a key path alone checks nothing.
@Suite("Envelope code checks and key paths")
struct EnvelopeChecksTests {
    static let u17 = Envelope(codePath: "code", payloadPath: "data.returnData.rankinglist", successCodes: [1])
        .checking("data.stateCode", messagePath: "data.message", successCodes: [1])

    struct Item: Decodable, Sendable, Equatable { let title: String }

    static func rank(code: Any, stateCode: Any, message: String = "成功") -> Data {
        let body: [String: Any] = ["code": code, "data": ["stateCode": stateCode, "message": message,
                                                          "returnData": ["rankinglist": [["title": "人气榜"]]]]]
        return (try? JSONSerialization.data(withJSONObject: body)) ?? Data()
    }

    static func response(_ body: Data) throws -> HTTPResponse {
        HTTPResponse(statusCode: 200, headers: ["Content-Type": "application/json"], body: body,
                     url: try #require(URL(string: "http://127.0.0.1/rank")))
    }

    static let backends: [JSONDecoding] = [.fast(), .foundation()]

    @Test("both codes pass, with either backend", arguments: backends)
    func bothPass(decoding: JSONDecoding) throws {
        let response = try Self.response(Self.rank(code: 1, stateCode: "1"))
        try Self.u17.check(response, decoding: decoding)
        #expect(try Self.u17.decodePayload([Item].self, from: response, decoding: decoding) == [Item(title: "人气榜")])
    }

    @Test("the first failing check is the one reported, with its path", arguments: backends)
    func firstFailureNamed(decoding: JSONDecoding) throws {
        let top = try Self.response(Self.rank(code: 0, stateCode: 2, message: "失败"))
        let first = try #require(throwing(NetworkError.self) { try Self.u17.check(top, decoding: decoding) })
        #expect(first.kind == .business(code: "0", message: ""))
        #expect(first.codingPath == "code")
        #expect(first.message.contains("at code"))

        let inner = try Self.response(Self.rank(code: 1, stateCode: 2, message: "失败"))
        let second = try #require(throwing(NetworkError.self) { try Self.u17.check(inner, decoding: decoding) })
        #expect(second.kind == .business(code: "2", message: "失败"))
        #expect(second.codingPath == "data.stateCode")
        #expect(second.message == "失败 (business code 2 at data.stateCode)")
        #expect(second.response?.statusCode == 200)
    }

    @Test("a missing second code is a decoding failure naming it; a failing first hides it", arguments: backends)
    func missingSecondCode(decoding: JSONDecoding) throws {
        let noState = try Self.response(Data(#"{"code":1,"data":{"message":"?"}}"#.utf8))
        let error = try #require(throwing(NetworkError.self) { try Self.u17.check(noState, decoding: decoding) })
        #expect(error.kind == .decodingFailed)
        #expect(error.codingPath == "data.stateCode")
        #expect(error.message.hasPrefix("the response is not a data.stateCode envelope"))

        let failsFirst = try Self.response(Data(#"{"code":5}"#.utf8))
        let early = try #require(throwing(NetworkError.self) { try Self.u17.check(failsFirst, decoding: decoding) })
        #expect(early.kind == .business(code: "5", message: ""))
    }

    @Test("one check keeps its message and the first check's accessors")
    func singleCheckCompatibility() throws {
        var envelope = Envelope.errcode
        #expect(envelope.checks.count == 1)
        #expect(envelope.codePath == "errcode" && envelope.messagePath == "errmsg" && envelope.successCodes == ["0"])
        let failed = try Self.response(Data(#"{"errcode":40001,"errmsg":"invalid token"}"#.utf8))
        let error = try #require(throwing(NetworkError.self) { try envelope.check(failed) })
        #expect(error.message == "invalid token (business code 40001)")
        envelope.successCodes = ["40001.0"]
        try envelope.check(failed)
        #expect(try envelope.header(of: failed) == ("40001", "invalid token"))
    }

    @Test("a key path checks no code, accepts any body, and decodes at its path")
    func keyPathEnvelope() throws {
        let envelope = Envelope.keyPath("data.list")
        #expect(envelope.checks.isEmpty)
        try envelope.check(try Self.response(Data("not json".utf8)))
        let body = try Self.response(Data(#"{"data":{"list":[{"title":"a"}]},"code":"whatever"}"#.utf8))
        #expect(try envelope.decodePayload([Item].self, from: body) == [Item(title: "a")])
        #expect(try envelope.decodePayload([Item]?.self, from: try Self.response(Data(#"{"data":{}}"#.utf8))) == nil)
        let missing = try #require(throwing(NetworkError.self) {
            _ = try envelope.decodePayload([Item].self, from: try Self.response(Data(#"{"data":{}}"#.utf8)))
        })
        #expect(missing.kind == .decodingFailed && missing.codingPath == "data.list")
        let noCheck = try #require(throwing(NetworkError.self) { _ = try envelope.header(of: body) })
        #expect(noCheck.kind == .decodingFailed)
    }

    // MARK: Through Chain, against a real server

    @Test("Chain: the u17 envelope end to end, each code failing in turn")
    func chainEndToEnd() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json"], body: Self.rank(code: 1, stateCode: 1)))
        server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json"], body: Self.rank(code: 1, stateCode: 3, message: "维护中")))
        server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json"], body: Self.rank(code: -1, stateCode: 1)))
        let request = Request.url(server.url("/rank/list")).envelope(Self.u17)
        #expect(try await request.value([Item].self) == [Item(title: "人气榜")])
        let inner = await #expect(throws: NetworkError.self) { try await request.value([Item].self) }
        #expect(inner?.kind == .business(code: "3", message: "维护中"))
        let outer = await #expect(throws: NetworkError.self) { try await request.value([Item].self) }
        #expect(outer?.kind == .business(code: "-1", message: ""))
        #expect(outer?.codingPath == "code")
    }

    @Test("Chain: .keyPath without an envelope, and with the configuration's envelope still checked")
    func chainKeyPath() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"data":{"list":[{"title":"x"},{"title":"y"}]}}"#))
        server.enqueue(.json(#"{"errcode":0,"data":{"list":[{"title":"z"}]}}"#))
        server.enqueue(.json(#"{"errcode":7,"errmsg":"no","data":{"list":[]}}"#))
        server.enqueue(.json(#"{"data":{}}"#))
        let plain = try await Request.url(server.url("/a")).keyPath("data.list").value([Item].self)
        #expect(plain.map(\.title) == ["x", "y"])

        var configuration = ChainConfiguration()
        configuration.envelope = .errcode
        let api = Request.url(server.url("/b")).configuration(configuration).keyPath("data.list")
        #expect(try await api.value([Item].self) == [Item(title: "z")])
        let business = await #expect(throws: NetworkError.self) { try await api.value([Item].self) }
        #expect(business?.kind == .business(code: "7", message: "no"))

        let missing = await #expect(throws: NetworkError.self) {
            try await Request.url(server.url("/c")).keyPath("data.list").value([Item].self)
        }
        #expect(missing?.kind == .decodingFailed)
        #expect(missing?.codingPath == "data.list")
    }

    @Test("Chain: responseJSON and the key path read the same payload")
    func chainKeyPathJSON() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"data":{"list":[1,2]}}"#))
        let json = try await Request.url(server.url("/j")).keyPath("data.list").json()
        #expect((json as? [Int]) == [1, 2])
    }
}

/// The error `body` throws, or `nil` when it returns.
func throwing<E: Error>(_ type: E.Type, _ body: () throws -> Void) -> E? {
    do { try body() } catch let error as E { return error } catch { return nil }
    return nil
}
