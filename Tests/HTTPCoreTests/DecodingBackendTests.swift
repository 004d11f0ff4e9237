import CurlTransport
import FastJSON
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// FastJSON (the default) and Foundation behind ``JSONDecoding``: every shared decoding path
/// gives the same values and the same errors (kind, coding path, message) with either.
@Suite("Decoding backends")
struct DecodingBackendTests {
    static let rankingPath = "data.returnData.rankinglist"

    /// The `/rank/list` shape: `argValue` and `rankingType` alternate between numbers and strings.
    static let rankingBody = #"""
    {"code":1,"data":{"stateCode":1,"message":"成功","returnData":{"rankinglist":[
      {"title":"畅销榜","argValue":1,"rankingType":"1","badge":null,"isNew":true},
      {"title":"新作榜","argValue":"2","rankingType":2,"badge":"7","isNew":"1"},
      {"title":"完结榜","argValue":3.0,"rankingType":"3","isNew":0},
      {"title":"飙升榜","argValue":"4","rankingType":4.0,"badge":9,"isNew":"false"}]}}}
    """#

    // MARK: Payloads at key paths

    @Test("the ranking list at data.returnData.rankinglist, lenient fields included")
    func rankingList() throws {
        let items = try Self.sameOutcome([RankRow].self, Self.rankingBody, at: Self.rankingPath).get()
        #expect(items.map(\.argValue) == [1, 2, 3, 4])
        #expect(items.map(\.rankingType) == [1, 2, 3, 4])
        #expect(items.map(\.badge) == [nil, 7, nil, 9])
        #expect(items.map(\.isNew) == [true, true, false, false])
        #expect(items.first?.title == "畅销榜")
    }

    @Test("failures have the same kind, coding path and message", arguments: [
        (#"{"code":1,"data":{"stateCode":1}}"#, "data.returnData"),
        (#"{"data":{"returnData":{}}}"#, "data.returnData.rankinglist"),
        (#"{"data":{"returnData":{"rankinglist":null}}}"#, "data.returnData.rankinglist"),
        (#"{"data":"x"}"#, "data"),
        (#"{"data":null}"#, "data"),
        (#"{"data":{"returnData":[]}}"#, "data.returnData"),
        (#"{"data":{"returnData":{"rankinglist":[{"title":1}]}}}"#, "data.returnData.rankinglist[0].title"),
        (#"{"data":{"returnData":{"rankinglist":[{"title":"a"},{"title":"b","argValue":"abc"}]}}}"#,
         "data.returnData.rankinglist[1].argValue"),
        (#"{"data":{"returnData":{"rankinglist":[{"title":"a","rankingType":2.5}]}}}"#,
         "data.returnData.rankinglist[0].rankingType"),
        (#"{"data":{"returnData":{"rankinglist":[{"title":"a","isNew":2}]}}}"#, "data.returnData.rankinglist[0].isNew"),
        (#"{"data":{"returnData":{"rankinglist":{}}}}"#, "data.returnData.rankinglist"),
        ("<html>oops</html>", nil),
        ("", nil),
        (#"{"data":"#, nil),
        ("[1,2]", nil),
    ] as [(String, String?)])
    func sameFailures(body: String, codingPath: String?) throws {
        let outcome = Self.sameOutcome([RankRow].self, body, at: Self.rankingPath)
        guard case .failure(let failure) = outcome else {
            Issue.record("decoded \(body)")
            return
        }
        #expect(failure.kind == .decodingFailed)
        #expect(failure.codingPath == codingPath)
    }

    @Test("a missing or null payload is nil for an optional with both")
    func optionalPayload() throws {
        let missing = try Self.sameOutcome([RankRow]?.self, #"{"data":{"returnData":{}}}"#, at: Self.rankingPath).get()
        #expect(missing == nil)
        let null = try Self.sameOutcome([RankRow]?.self, #"{"data":{"returnData":{"rankinglist":null}}}"#,
                                        at: Self.rankingPath).get()
        #expect(null == nil)
        // Only the last key may be missing: a missing parent is still an error naming it.
        let parent = Self.sameOutcome([RankRow]?.self, #"{"data":{}}"#, at: Self.rankingPath)
        #expect(parent.failed?.codingPath == "data.returnData")
        let present = try Self.sameOutcome(Int?.self, #"{"data":{"n":"x","m":5}}"#, at: "data.m").get()
        #expect(present == 5)
    }

    @Test("whole bodies, empty path components and scalars")
    func pathsAndWholeBodies() throws {
        #expect(try Self.sameOutcome([Int].self, "[1,2,3]", at: nil).get() == [1, 2, 3])
        #expect(try Self.sameOutcome([Int].self, "[1,2,3]", at: "").get() == [1, 2, 3])
        #expect(try Self.sameOutcome(String.self, #"{"a":{"b":"c"}}"#, at: "a..b.").get() == "c")
        #expect(try Self.sameOutcome(Int.self, #"{"a":1.0}"#, at: "a").get() == 1)
        // Foundation on Linux reports a fraction for an `Int` as invalid JSON at the top level; so does FastJSON.
        #expect(Self.sameOutcome(Int.self, #"{"a":1.5}"#, at: "a").failed?.kind == .decodingFailed)
        #expect(Self.sameOutcome(Int.self, #"{"a":1}"#, at: "a.b").failed?.codingPath == "a")
    }

    @Test("key paths name object keys only: numeric components do not index arrays with either")
    func numericComponents() throws {
        #expect(try Self.sameOutcome(Int.self, #"{"list":{"0":5}}"#, at: "list.0").get() == 5)
        let array = Self.sameOutcome(Int.self, #"{"list":[5]}"#, at: "list.0")
        #expect(array.failed?.codingPath == "list")
    }

    @Test("key paths are matched after the key decoding strategy, with both")
    func convertedKeys() throws {
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        let fast = JSONDecoding.fast(FastJSONDecoder(configuredLike: snake))
        let body = #"{"data":{"return_data":{"item_name":"x","arg_value":"3"}}}"#
        let item = try Self.sameOutcome(SnakeItem.self, body, at: "data.returnData", fast: fast,
                                        foundation: .foundation(snake)).get()
        #expect(item == SnakeItem(itemName: "x", argValue: 3))
        let raw = Self.sameOutcome(SnakeItem.self, body, at: "data.return_data", fast: fast, foundation: .foundation(snake))
        #expect(raw.failed?.codingPath == "data.return_data")
    }

    @Test("the first of duplicate keys wins with both")
    func duplicateKeys() throws {
        #expect(try Self.sameOutcome(Int.self, #"{"data":{"n":1,"n":2}}"#, at: "data.n").get() == 1)
    }

    // MARK: Lenient fields

    @Test("lenient scalars decode alike")
    func lenientScalars() throws {
        #expect(try Self.sameOutcome([Lenient<Int>].self, #"[1,"2",3.0," 4 ",null]"#).get().map(\.wrappedValue)
            == [1, 2, 3, 4, 0])
        #expect(try Self.sameOutcome([Lenient<Bool>].self, #"[true,"true",1,"1","0",0,"FALSE"]"#).get()
            .map(\.wrappedValue) == [true, true, true, true, false, false, false])
        #expect(try Self.sameOutcome([Lenient<String>].self, #"["a",12,12.5,true]"#).get().map(\.wrappedValue)
            == ["a", "12", "12.5", "true"])
        #expect(try Self.sameOutcome([LenientOptional<Double>].self, #"[null,"9.5",9.5,1]"#).get().map(\.wrappedValue)
            == [nil, 9.5, 9.5, 1])
        #expect(try Self.sameOutcome(Lenient<UInt64>.self, "18446744073709551615").get().wrappedValue == .max)
        #expect(Self.sameOutcome(Lenient<UInt8>.self, "256").failed?.kind == .decodingFailed)
        #expect(Self.sameOutcome([Lenient<Int>].self, #"[1,"x"]"#).failed?.codingPath == "[1]")
        #expect(Self.sameOutcome([Lenient<Int>].self, "[[1]]").failed?.codingPath == "[0]")
    }

    @Test("a missing lenient key gives the default, a missing optional one nil, with both")
    func lenientMissingKeys() throws {
        let row = try Self.sameOutcome(RankRow.self, #"{"title":"t"}"#).get()
        #expect(row.argValue == 0)
        #expect(row.isNew == false)
        #expect(row.badge == nil)
    }

    // MARK: Envelope codes

    @Test("envelope code and message read alike", arguments: [
        #"{"errcode":0,"errmsg":"ok"}"#, #"{"errcode":"0"}"#, #"{"errcode":0.0}"#, #"{"errcode":" 00 ","errmsg":" ok "}"#,
        #"{"errcode":true}"#, #"{"errcode":1.5,"errmsg":12}"#, #"{"errcode":1e400}"#, #"{"errcode":1e-400}"#,
        #"{"errcode":-0.0}"#, #"{"errcode":9223372036854775808}"#, #"{"errcode":-1e2,"errmsg":false}"#,
        #"{"errcode":null}"#, #"{"errcode":[0]}"#, #"{"errcode":{}}"#, "{}", "[1,2]", "", "   ", "<html>oops</html>",
        #"{"errcode":0,"errmsg":null}"#, #"{"errcode":0,"errmsg":{"a":1}}"#, #"{"errcode":0,"errmsg":1e400}"#,
        #"{"errcode":0,"errcode":1}"#, #"{"errcode":"\u0034\u0030"}"#, #"{"errcode":0,"x":"\q"}"#,
        #"{"errcode":0,"x":[1,]}"#, #"{"errcode":0}x"#, #"{"errcode":0,"errmsg":"\ud800"}"#,
    ])
    func envelopeHeaders(body: String) {
        Self.expectSameHeader(.errcode, Data(body.utf8))
    }

    @Test("nested envelope codes read alike", arguments: [
        #"{"code":1,"data":{"stateCode":1,"message":"成功"}}"#, #"{"code":1,"data":{"stateCode":"0","message":"参数错误"}}"#,
        #"{"code":1,"data":{"message":"x"}}"#, #"{"code":1,"data":"x"}"#, #"{"code":1,"data":null}"#, #"{"code":1}"#,
        #"{"data":{"stateCode":1,"message":["a"]}}"#,
    ])
    func nestedEnvelopeHeaders(body: String) {
        let ranking = Envelope(codePath: "data.stateCode", messagePath: "data.message", payloadPath: Self.rankingPath,
                               successCodes: [1])
        Self.expectSameHeader(ranking, Data(body.utf8))
    }

    @Test("codes in other encodings and with a byte order mark read alike")
    func encodedEnvelopeHeaders() throws {
        let text = #"{"errcode":40001,"errmsg":"invalid token"}"#
        for encoding in [String.Encoding.utf16LittleEndian, .utf16BigEndian, .utf32LittleEndian, .utf16] {
            Self.expectSameHeader(.errcode, try #require(text.data(using: encoding)))
        }
        Self.expectSameHeader(.errcode, Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8))
        let header = try Envelope.errcode.header(of: Self.response(Data([0xEF, 0xBB, 0xBF]) + Data(text.utf8)))
        #expect(header.code == "40001")
    }

    @Test("a business failure is the same error with both")
    func businessFailure() {
        let response = Self.response(Data(#"{"errcode":"40001","errmsg":"invalid token"}"#.utf8))
        let fast = #expect(throws: NetworkError.self) { try Envelope.errcode.check(response) }
        let foundation = #expect(throws: NetworkError.self) { try Envelope.errcode.check(response, decoder: JSONDecoder()) }
        #expect(fast?.kind == .business(code: "40001", message: "invalid token"))
        #expect(fast?.kind == foundation?.kind)
        #expect(fast?.message == foundation?.message)
    }

    // MARK: JSON objects

    @Test("JSON objects equal JSONSerialization's", arguments: [
        Self.rankingBody, #"[1,-1,0,1.5,-0.0,1e2,true,false,null,"x",18446744073709551615,12345678901234567890123]"#,
        #"{"a":1,"a":2}"#, "42", #""text""#, "{}", "[]",
    ])
    func jsonObjects(body: String) throws {
        let response = Self.response(Data(body.utf8))
        let fast = try Envelope.json(at: nil, from: response)
        let foundation = try Envelope.json(at: nil, from: response, decoding: .foundation())
        #expect(isSameJSONObject(fast, foundation), "\(fast) vs \(foundation)")
    }

    @Test("JSON payloads and JSON failures alike", arguments: ["<html>", "", "[1e400]", #"{"data":[1]}"#, #"{"data":"x"}"#])
    func jsonPayloads(body: String) {
        let response = Self.response(Data(body.utf8))
        let fast = Result { () throws(NetworkError) in try Envelope.json(at: "data.list", from: response) }
        let foundation = Result { () throws(NetworkError) in
            try Envelope.json(at: "data.list", from: response, decoding: .foundation())
        }
        switch (fast, foundation) {
        case (.success(let fast), .success(let foundation)):
            #expect(isSameJSONObject(fast, foundation))
        case (.failure(let fast), .failure(let foundation)):
            #expect(fast.kind == foundation.kind)
            #expect(fast.codingPath == foundation.codingPath)
        default:
            Issue.record("\(fast) vs \(foundation)")
        }
    }

    // MARK: Error bodies, serializers and the setting itself

    @Test("error bodies decode alike")
    func errorBodies() {
        let body = Self.response(Data(#"{"error":"wrong password","error_code":"1001"}"#.utf8), status: 401)
        #expect(ErrorBodyDecoder(LoginError.self).decode(body) as? LoginError == LoginError(error: "wrong password",
                                                                                          error_code: "1001"))
        #expect(ErrorBodyDecoder(LoginError.self, decoder: JSONDecoder()).decode(body) as? LoginError
            == LoginError(error: "wrong password", error_code: "1001"))
        for text in ["<html>", "", #"{"error":1}"#] {
            let response = Self.response(Data(text.utf8), status: 500)
            #expect(ErrorBodyDecoder(LoginError.self).decode(response) == nil)
            #expect(ErrorBodyDecoder(LoginError.self, decoding: .foundation()).decode(response) == nil)
        }
    }

    @Test("FastJSON is the default of every shared piece; a JSONDecoder selects Foundation")
    func defaultsAndSwitch() throws {
        let response = Self.response(Data(#"{"errcode":0,"data":{}}"#.utf8))
        #expect(try ResponseSerializer<BackendProbe>.decodable().serialize(response, .errcode).backend == "fast")
        #expect(try ResponseSerializer<BackendProbe>.decodable(decoder: JSONDecoder()).serialize(response, .errcode)
            .backend == "foundation")
        #expect(try ResponseSerializer<BackendProbe>.decodable(decoding: .foundation()).serialize(response, nil)
            .backend == "foundation")
        #expect(try Envelope.errcode.decodePayload(BackendProbe.self, from: response).backend == "fast")
        #expect(try Envelope.decode(BackendProbe.self, at: nil, from: response, decoder: JSONDecoder()).backend
            == "foundation")

        var validation = ResponseValidation(envelope: .errcode)
        guard case .fast = validation.decoding else {
            Issue.record("the default is not FastJSON")
            return
        }
        let snake = JSONDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        validation.decoder = snake
        guard case .foundation(let chosen) = validation.decoding else {
            Issue.record("assigning a JSONDecoder did not select Foundation")
            return
        }
        #expect(chosen === snake)
        #expect(ResponseValidation(decoder: snake).decoder === snake)
    }

    @Test("jsonDecoder of a fast setting carries its strategies")
    func foundationEquivalent() throws {
        var fast = FastJSONDecoder()
        fast.keyDecodingStrategy = .convertFromSnakeCase
        fast.dateDecodingStrategy = .secondsSince1970
        let decoder = JSONDecoding.fast(fast).jsonDecoder
        let item = try decoder.decode(SnakeItem.self, from: Data(#"{"item_name":"x","arg_value":1}"#.utf8))
        #expect(item == SnakeItem(itemName: "x", argValue: 1))
        #expect(try decoder.decode(Date.self, from: Data("10".utf8)) == Date(timeIntervalSince1970: 10))
        let foundation = JSONDecoder()
        #expect(JSONDecoding.foundation(foundation).jsonDecoder === foundation)
    }
}

// MARK: Helpers

extension DecodingBackendTests {
    /// A decoding failure as the caller sees it.
    struct Failure: Error, Equatable {
        let kind: NetworkError.Kind
        let codingPath: String?
        let message: String
        /// The `DecodingError` case, or the type of another underlying error.
        let underlying: String
    }

    /// Decodes with both backends, expects the same outcome, and returns FastJSON's.
    static func sameOutcome<T: Decodable & Equatable>(
        _ type: T.Type, _ body: String, at path: String? = nil, fast: JSONDecoding = .fast(),
        foundation: JSONDecoding = .foundation(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> Result<T, Failure> {
        let response = response(Data(body.utf8))
        let results = [fast, foundation].map { decoding in
            Result { () throws(Failure) -> T in
                do throws(NetworkError) {
                    return try Envelope.decode(T.self, at: path, from: response, decoding: decoding)
                } catch {
                    throw Failure(kind: error.kind, codingPath: error.codingPath, message: error.message,
                                  underlying: describe(error.underlyingError))
                }
            }
        }
        #expect(results[0] == results[1], "FastJSON vs Foundation for \(body)", sourceLocation: sourceLocation)
        return results[0]
    }

    /// Expects the same header (or the same error) from both backends.
    static func expectSameHeader(_ envelope: Envelope, _ body: Data, sourceLocation: SourceLocation = #_sourceLocation) {
        let response = response(body)
        let outcomes = [JSONDecoding.fast(), .foundation()].map { decoding in
            Result { () throws(Failure) -> [String] in
                do throws(NetworkError) {
                    let header = try envelope.header(of: response, decoding: decoding)
                    return [header.code, header.message]
                } catch {
                    throw Failure(kind: error.kind, codingPath: error.codingPath, message: error.message,
                                  underlying: describe(error.underlyingError))
                }
            }
        }
        #expect(outcomes[0] == outcomes[1], "FastJSON vs Foundation for \(String(decoding: body, as: UTF8.self))",
                sourceLocation: sourceLocation)
    }

    static func describe(_ error: (any Error)?) -> String {
        guard let error else { return "none" }
        guard let decodingError = error as? DecodingError else { return String(describing: type(of: error)) }
        switch decodingError {
        case .keyNotFound: return "keyNotFound"
        case .valueNotFound: return "valueNotFound"
        case .typeMismatch: return "typeMismatch"
        case .dataCorrupted: return "dataCorrupted"
        @unknown default: return "unknown"
        }
    }

    static func response(_ body: Data, status: Int = 200) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: ["Content-Type": "application/json"], body: body,
                     url: URL(fileURLWithPath: "/decoding"))
    }

}

extension Result {
    /// The failure, or `nil` (named apart from the suite support's `failure`).
    fileprivate var failed: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

/// A row of the ranking list, with every kind of lenient field.
private struct RankRow: Decodable, Equatable {
    let title: String
    @Lenient var argValue: Int
    @Lenient var rankingType: Int
    @LenientOptional var badge: Int?
    @Lenient var isNew: Bool
}

private struct SnakeItem: Decodable, Equatable {
    let itemName: String
    @Lenient var argValue: Int
}

private struct LoginError: Decodable, Error, Equatable {
    let error: String
    let error_code: String
}

/// Records which decoder made it (FastJSON's decoder type lives in the `FastJSON` module).
private struct BackendProbe: Decodable, Sendable {
    let backend: String

    init(from decoder: any Decoder) throws {
        backend = String(reflecting: type(of: decoder)).hasPrefix("FastJSON.") ? "fast" : "foundation"
    }
}
