import ChainModels
import ChainTesting
import Foundation
import HTTPFeatures
import Testing

/// HandyJSON-style models: declared defaults, conversions, designated paths, both front ends.
@Suite("HandyJSON models")
struct HandyJSONTests {
    struct Author: HandyJSON, Equatable { var name: String = "anonymous"; var age: Int = 0 }
    struct Comic: HandyJSON, Equatable, Sendable {
        var comicId: Int = 0
        var name: String = ""
        var cover: String?
        var tags: [String] = []
        var level: Int = 1
        var author: Author?
    }

    static let comics = #"{"code":1,"data":{"returnData":{"comics":[{"comicId":"123","name":"海贼","tags":["a",2],"author":{"age":"40"}},{"comicId":7,"name":null,"cover":null,"level":null}]}}}"#

    @Test("missing keys and nulls keep declared defaults; strings for numbers convert; nested models")
    func designatedPath() throws {
        let list = try #require([Comic].deserialize(from: Self.comics, designatedPath: "data.returnData.comics"))
        #expect(list.count == 2)
        #expect(list[0] == Comic(comicId: 123, name: "海贼", cover: nil, tags: ["a", "2"], level: 1,
                                 author: Author(name: "anonymous", age: 40)))
        #expect(list[1] == Comic(comicId: 7, name: "", cover: nil, tags: [], level: 1, author: nil))
    }

    @Test("whole-text, dictionary and failing inputs; toJSON round trip")
    func deserializeForms() throws {
        #expect(Comic.deserialize(from: #"{"comicId":"5"}"#)?.comicId == 5)
        #expect(Comic.deserialize(from: #"{"comicId":"abc"}"#) == nil)
        #expect(Comic.deserialize(from: "not json") == nil)
        #expect(Comic.deserialize(from: nil as String?) == nil)
        #expect(Comic.deserialize(from: ["data": ["comicId": 9]], designatedPath: "data")?.comicId == 9)
        let comic = Comic(comicId: 1, name: "x", cover: nil, tags: ["t"], level: 3, author: nil)
        let json = try #require(comic.toJSON())
        #expect(json["level"] as? Int == 3)
        #expect(Comic.deserialize(from: comic.toJSONString()) == comic)
    }

    @Test("strict settings still decode HandyJSON models tolerantly, in both backends")
    func alwaysTolerant() throws {
        for decoding in [JSONDecoding.fast(), .foundation()] {
            let comic = try decoding.decode(Comic.self, from: Data(#"{"comicId":"8"}"#.utf8))
            #expect(comic.comicId == 8 && comic.level == 1)
        }
    }

    @Test("end to end in both front ends, with an envelope payload")
    func frontEnds() async throws {
        let server = try MockServer()
        server.enqueue(.json(#"{"errcode":0,"data":{"comicId":"11"}}"#))
        server.enqueue(.json(#"{"comicId":"12","level":null}"#))
        let viaChain = try await Request.url(server.url("/c")).envelope(.errcode).value(Comic.self)
        #expect(viaChain.comicId == 11 && viaChain.level == 1)
        let manager = HTTPSessionManager(baseURL: server.url("/"))
        let viaAF: Comic = try await withCheckedThrowingContinuation { continuation in
            manager.GET("c", parameters: nil, as: Comic.self, headers: nil, progress: nil,
                        success: { _, value in continuation.resume(returning: value) },
                        failure: { _, error in continuation.resume(throwing: error) })
        }
        #expect(viaAF.comicId == 12 && viaAF.level == 1)
    }
}
