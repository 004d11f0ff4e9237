/// The fixed users of the sample API (the login/user-lookup scenario of the source documents).
enum SampleUsers {
    struct User {
        let id: String
        let name: String
        let age: Int
        let email: String
        let password: String

        /// The public form: never includes the password.
        var json: JSONValue {
            ["id": .string(id), "name": .string(name), "age": .int(age), "email": .string(email)]
        }
    }

    static let all: [User] = [
        User(id: "101", name: "wiki", age: 18, email: "wiki@example.com", password: "secret"),
        User(id: "102", name: "alice", age: 24, email: "alice@example.com", password: "wonderland"),
        User(id: "103", name: "bob", age: 31, email: "bob@example.com", password: "builder"),
    ]

    static func user(id: String) -> User? {
        all.first { $0.id == id }
    }

    static func user(name: String) -> User? {
        all.first { $0.name == name }
    }
}
