/// A user of the sample API (`/user/{id}`, `/account/login`, `/user/query`).
public struct User: Codable, Sendable, Equatable {
    public let id: String
    public let name: String
    public let age: Int
    public let email: String
}

/// The sample API's error body, `{"error":"invalid username or password","error_code":"1001"}`:
/// what iOS apps map with ObjectMapper or Codable and show in an alert.
public struct APIError: Decodable, Error, Sendable {
    public let error: String
    public let errorCode: String

    enum CodingKeys: String, CodingKey {
        case error
        case errorCode = "error_code"
    }
}
