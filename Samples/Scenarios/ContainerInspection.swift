/// A few fields of Docker's `GET /containers/{id}/json`.
public struct ContainerInspection: Codable, Sendable, Equatable {
    /// The container's `State` object.
    public struct State: Codable, Sendable, Equatable {
        public let status: String
        public let running: Bool

        enum CodingKeys: String, CodingKey {
            case status = "Status"
            case running = "Running"
        }
    }

    public let id: String
    public let name: String
    public let state: State

    enum CodingKeys: String, CodingKey {
        case id = "Id"
        case name = "Name"
        case state = "State"
    }
}
