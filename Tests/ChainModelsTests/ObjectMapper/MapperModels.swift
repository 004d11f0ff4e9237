import ChainModels
import Foundation

// The source document's model, as written there for ObjectMapper.
class User: Mappable {
    var userId: Int?
    var name: String?
    var avatar: String?
    var vip: Bool = false
    var birthday: Date?

    required init?(map: Map) {}

    func mapping(map: Map) {
        userId <- map["userId"]
        name <- map["name"]
        avatar <- map["avatar"]
        vip <- map["vip"]
        birthday <- (map["birthday"], DateTransform())
    }
}

enum Level: String {
    case gold, silver
}

enum Rank: Int {
    case first = 1, second = 2
}

struct Scalars: Mappable {
    var int = -1
    var int64: Int64 = -1
    var uint64: UInt64 = 0
    var double = -1.0
    var float: Float = -1
    var bool = false
    var string = "unset"
    var optionalInt: Int? = 7
    var optionalString: String? = "unset"
    var unwrapped: Int!
    var ints: [Int] = []
    var names: [String: String] = [:]
    var any: [String: Any] = [:]

    init?(map: Map) {}

    mutating func mapping(map: Map) {
        int <- map["int"]
        int64 <- map["int64"]
        uint64 <- map["uint64"]
        double <- map["double"]
        float <- map["float"]
        bool <- map["bool"]
        string <- map["string"]
        optionalInt <- map["optionalInt"]
        optionalString <- map["optionalString"]
        unwrapped <- map["unwrapped"]
        ints <- map["ints"]
        names <- map["names"]
        any <- map["any"]
    }
}

struct Tag: Mappable {
    var id = 0
    var label: String?

    /// Rejects a tag without an id, as a model's `init?(map:)` may.
    init?(map: Map) {
        guard map["id"].isKeyPresent else { return nil }
    }

    init(id: Int, label: String?) {
        self.id = id
        self.label = label
    }

    mutating func mapping(map: Map) {
        id <- map["id"]
        label <- map["label"]
    }
}

final class Profile: Mappable {
    var owner: Tag?
    var main = Tag(id: 0, label: nil)
    var tags: [Tag] = []
    var optionalTags: [Tag]?
    var byName: [String: Tag] = [:]
    var level: Level = .silver
    var optionalLevel: Level?
    var ranks: [Rank] = []
    var city: String?
    var literalDotted: String?
    var firstItem: Int?
    var homepage: URL?
    var updated: Date?
    var count: Int?

    required init?(map: Map) {}

    func mapping(map: Map) {
        owner <- map["owner"]
        main <- map["main"]
        tags <- map["tags"]
        optionalTags <- map["optionalTags"]
        byName <- map["byName"]
        level <- map["level"]
        optionalLevel <- map["optionalLevel"]
        ranks <- map["ranks"]
        city <- map["address.city.name"]
        literalDotted <- map["a.b", nested: false]
        firstItem <- map["items.0.id"]
        homepage <- (map["homepage"], URLTransform())
        updated <- (map["updated"], ISO8601DateTransform())
        count <- (map["count"], TransformOf<Int, String>(fromJSON: { $0.flatMap { Int($0) } }, toJSON: { $0.map(String.init) }))
    }
}
