/// One element of `/users.json`, the ~100 KB array the `users-decode` scenario decodes.
/// `Benchmarks/run` generates the file with exactly these keys; keep the two in step.
public struct User: Decodable, Sendable, Equatable {
    public struct Address: Decodable, Sendable, Equatable {
        public var street: String
        public var city: String
        public var zip: String
        public var lat: Double
        public var lng: Double
    }

    public var id: Int
    public var name: String
    public var username: String
    public var email: String
    public var age: Int
    public var active: Bool
    public var score: Double
    public var tags: [String]
    public var address: Address
    public var createdAt: String

    // Explicit keys rather than `.convertFromSnakeCase`: the strategy costs time on every key,
    // and a decode benchmark should measure the decoder, not the key conversion.
    enum CodingKeys: String, CodingKey {
        case id, name, username, email, age, active, score, tags, address
        case createdAt = "created_at"
    }
}
