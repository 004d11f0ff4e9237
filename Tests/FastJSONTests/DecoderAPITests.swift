import FastJSON
import Foundation
import Testing

/// The decoder's own API surface: configuration, sharing, and containers
/// that outlive the call that made them.
@Suite("Decoder API")
struct DecoderAPITests {
    /// Keeps a container and a super decoder past the end of `decode`.
    final class Escaper: Decodable {
        let container: KeyedDecodingContainer<Keys>
        let child: any Decoder

        enum Keys: String, CodingKey { case a, b }

        init(from decoder: any Decoder) throws {
            container = try decoder.container(keyedBy: Keys.self)
            child = try container.superDecoder(forKey: .b)
        }
    }

    @Test("Containers and decoders kept by init(from:) stay usable after decode returns")
    func escapedContainers() throws {
        var escaper: Escaper? = try FastJSONDecoder().decode(Escaper.self, from: Data(#"{"a":"text","b":[1,2]}"#.utf8))
        for _ in 0..<3 {
            // Allocate in between so freed memory would be reused.
            _ = try FastJSONDecoder().decode([String].self, from: Data(#"["x","y","zzzzzzzzzzzzzzzzzzzz"]"#.utf8))
        }
        let kept = try #require(escaper)
        #expect(try kept.container.decode(String.self, forKey: .a) == "text")
        var list = try kept.child.unkeyedContainer()
        #expect(try list.decode(Int.self) == 1)
        #expect(kept.child.codingPath.map(\.stringValue) == ["b"])
        escaper = nil
    }

    /// Remembers, weakly, the decoders it was given.
    struct Watcher: Decodable {
        nonisolated(unsafe) static var decoders: [() -> AnyObject?] = []

        enum Keys: String, CodingKey { case a, b }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let child = try container.superDecoder(forKey: .a)
            _ = try child.container(keyedBy: Keys.self)
            _ = try container.nestedUnkeyedContainer(forKey: .b)
            let outer = decoder as AnyObject
            let inner = child as AnyObject
            Self.decoders = [{ [weak outer] in outer }, { [weak inner] in inner }]
        }
    }

    @Test("Decoders, containers and documents are freed after decoding")
    func noRetainCycles() throws {
        _ = try FastJSONDecoder().decode(Watcher.self, from: Data(#"{"a":{"b":1},"b":[]}"#.utf8))
        #expect(Watcher.decoders.count == 2)
        #expect(Watcher.decoders.allSatisfy { $0() == nil })
    }

    @Test("init(configuredLike:) copies every strategy and userInfo")
    func configuredLike() throws {
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        foundation.dateDecodingStrategy = .secondsSince1970
        foundation.dataDecodingStrategy = .deferredToData
        foundation.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let key = try #require(Fixtures.UserInfoEcho.key)
        foundation.userInfo = [key: "copied"]
        let fast = FastJSONDecoder(configuredLike: foundation)

        struct Sample: Decodable, Equatable {
            var someDate: Date
            var someData: Data
            var someValue: Double
        }
        let json = Data(#"{"some_date":10,"some_data":[1,2],"some_value":"inf"}"#.utf8)
        #expect(try fast.decode(Sample.self, from: json) == foundation.decode(Sample.self, from: json))
        #expect(try fast.decode(Fixtures.UserInfoEcho.self, from: Data("1".utf8)).info == "copied")
    }

    @Test("One decoder value shared by concurrent tasks")
    func concurrentUse() async throws {
        let decoder = FastJSONDecoder()
        let data = Data(#"[{"name":"a","value":1},{"name":"b","value":2}]"#.utf8)
        let totals = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 {
                group.addTask { try decoder.decode([Fixtures.Leaf].self, from: data).map(\.value).reduce(0, +) }
            }
            var totals: [Int] = []
            for try await total in group { totals.append(total) }
            return totals
        }
        #expect(totals == Array(repeating: 3, count: 16))
    }

    @Test("Large objects and many keys use the table lookup with the same results")
    func largeObjects() {
        let members = (0..<200).map { "\"k\($0)\":\($0)" }
        Equivalence.expectSame([String: Int].self, "{" + members.joined(separator: ",") + "}")
        Equivalence.expectSame([String: Int].self, "{" + (members + ["\"k5\":-1"]).joined(separator: ",") + "}")
        Equivalence.expectSame(Fixtures.Leaf.self, "{" + members.joined(separator: ",") + ",\"name\":\"n\",\"value\":7}")
    }
}
