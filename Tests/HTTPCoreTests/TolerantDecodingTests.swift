import FastJSON
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

/// Tolerant mode over both backends, `StringNumber` and `Empty`, without I/O.
@Suite("Tolerant decoding")
struct TolerantDecodingTests {
    struct Inner: Codable, Equatable { var id: Int; var name: String }
    struct Model: Codable, Equatable {
        var count: Int
        var ratio: Double
        var title: String
        var flag: Bool
        var tags: [String]
        var map: [String: Int]
        var note: String?
        var inner: Inner
        var items: [Inner]
    }

    static let backends: [JSONDecoding] = [.tolerant(.fast()), .tolerant(.foundation())]

    static func both<T: Decodable & Equatable>(_ type: T.Type, _ json: String, at path: String? = nil) throws -> T {
        let values = try backends.map { try $0.decode(T.self, from: Data(json.utf8), atKeyPath: path) }
        #expect(values[0] == values[1])
        return values[0]
    }

    /// The error of each tolerant backend as case name and dotted coding path.
    static func errors<T: Decodable>(_ type: T.Type, _ json: String) -> [String] {
        backends.map { decoding in
            do {
                _ = try decoding.decode(T.self, from: Data(json.utf8))
                return "no error"
            } catch let error as DecodingError {
                switch error {
                case .typeMismatch(_, let context): return "typeMismatch " + NetworkError.describeCodingPath(context.codingPath)
                case .keyNotFound(let key, let context): return "keyNotFound " + NetworkError.describeCodingPath(context.codingPath + [key])
                case .valueNotFound(_, let context): return "valueNotFound " + NetworkError.describeCodingPath(context.codingPath)
                case .dataCorrupted(let context): return "dataCorrupted " + NetworkError.describeCodingPath(context.codingPath)
                @unknown default: return "unknown"
                }
            } catch {
                return "other \(error)"
            }
        }
    }

    @Test("missing keys and nulls give the type's empty value at every depth")
    func defaults() throws {
        let model = try Self.both(Model.self, #"{"note":null,"inner":null,"items":[{"id":"7"},null,{}]}"#)
        #expect(model == Model(count: 0, ratio: 0, title: "", flag: false, tags: [], map: [:], note: nil,
                               inner: Inner(id: 0, name: ""),
                               items: [Inner(id: 7, name: ""), Inner(id: 0, name: ""), Inner(id: 0, name: "")]))
    }

    @Test("numbers and strings convert both ways")
    func conversions() throws {
        let json = #"{"count":"12","ratio":"12.5","title":12.5,"flag":"1","tags":[1,true,"x"],"map":{"a":"3"},"note":7,"inner":{"id":12.0,"name":true},"items":[]}"#
        let model = try Self.both(Model.self, json)
        #expect(model.count == 12 && model.ratio == 12.5 && model.title == "12.5" && model.flag)
        #expect(model.tags == ["1", "true", "x"] && model.map == ["a": 3] && model.note == "7")
        #expect(model.inner == Inner(id: 12, name: "true"))
    }

    @Test("values that do not convert throw the same typeMismatch with the coding path", arguments: [
        (#"{"count":"abc"}"#, "typeMismatch count"),
        (#"{"count":3.7}"#, "typeMismatch count"),
        (#"{"title":{}}"#, "typeMismatch title"),
        (#"{"items":[{"id":1},{"id":"x"}]}"#, "typeMismatch items[1].id"),
        (#"{"inner":"x"}"#, "typeMismatch inner"),
    ])
    func mismatches(json: String, expected: String) {
        #expect(Self.errors(Model.self, json) == [expected, expected])
    }

    enum Kind: String, Codable { case a, b }
    struct WithEnum: Codable, Equatable { var kind: Kind }

    @Test("a type that cannot be made from nothing keeps the backend's keyNotFound")
    func keyNotFound() {
        #expect(Self.errors(WithEnum.self, "{}") == ["keyNotFound kind", "keyNotFound kind"])
    }

    @Test("key paths and missing payloads")
    func keyPaths() throws {
        #expect(try Self.both([Inner].self, #"{"data":{"list":[{"id":"1"}]}}"#, at: "data.list") == [Inner(id: 1, name: "")])
        #expect(try Self.both([Inner].self, #"{"data":{}}"#, at: "data.list") == [])
        #expect(try Self.both(Inner?.self, #"{"data":{}}"#, at: "data.list") == nil)
    }

    @Test("strict decoding is unchanged")
    func strictUnchanged() {
        for decoding in [JSONDecoding.fast(), .foundation()] {
            #expect(throws: DecodingError.self) { try decoding.decode(Inner.self, from: Data(#"{"id":"1","name":"x"}"#.utf8)) }
        }
    }

    struct WithLenient: Codable, Equatable { @Lenient var value: Int }

    @Test("@Lenient keeps working in tolerant mode")
    func lenientInside() throws {
        #expect(try Self.both(WithLenient.self, #"{"value":"5"}"#).value == 5)
        #expect(try Self.both(WithLenient.self, "{}").value == 0)
    }

    // MARK: StringNumber

    struct RankItem: Codable, Equatable {
        var sortId: StringNumber
        var title: String
        var argName: String
        var argValue: StringNumber
        var rankingType: StringNumber
    }

    @Test("u17's rank list decodes strictly and keeps 月票值")
    func rankList() throws {
        let json = #"{"code":1,"data":{"stateCode":1,"message":"成功","returnData":{"rankinglist":[{"sortId":"1","title":"人气榜","subTitle":"...","cover":"http://x","argName":"sort","argValue":"23","rankingType":"月票值"}]}}}"#
        for decoding in [JSONDecoding.fast(), .foundation()] {
            let items = try decoding.decode([RankItem].self, from: Data(json.utf8), atKeyPath: "data.returnData.rankinglist")
            #expect(items.first?.rankingType.string == "月票值" && items.first?.rankingType.int == nil)
            #expect(items.first?.argValue.int == 23 && items.first?.argValue.string == "23")
        }
    }

    struct Holder: Codable, Equatable { var value: StringNumber; var optional: StringNumber? }

    @Test("StringNumber: text, numbers, null, missing and round trips", arguments: [
        (#"{"value":"23"}"#, "23", 23, false),
        (#"{"value":23}"#, "23", 23, true),
        (#"{"value":1.50}"#, "1.5", nil, true),
        (#"{"value":12345678901234567890}"#, "12345678901234567890", nil, true),
        (#"{"value":null}"#, "", nil, false),
        (#"{}"#, "", nil, false),
    ])
    func stringNumber(json: String, text: String, int: Int?, isNumber: Bool) throws {
        for decoding in [JSONDecoding.fast(), .foundation()] {
            let holder = try decoding.decode(Holder.self, from: Data(json.utf8))
            #expect(holder.value.string == text && holder.value.int == int && holder.value.isNumber == isNumber)
            #expect(holder.optional == nil)
            let again = try decoding.decode(Holder.self, from: JSONEncoder().encode(holder))
            #expect(again == holder)
        }
    }

    @Test("StringNumber rejects Booleans and objects")
    func stringNumberRejects() {
        for decoding in [JSONDecoding.fast(), .foundation()] {
            #expect(throws: DecodingError.self) { try decoding.decode(Holder.self, from: Data(#"{"value":true}"#.utf8)) }
            #expect(throws: DecodingError.self) { try decoding.decode(Holder.self, from: Data(#"{"value":{}}"#.utf8)) }
        }
        let literal: StringNumber = 7
        #expect(literal.double == 7 && literal.isNumber && literal != "7")
    }
}
