/// One entry of Docker's `GET /containers/json`.
public struct Container: Codable, Sendable, Equatable {
    /// A published or exposed port: `PublicPort` only when it is published on the host.
    public struct Port: Codable, Sendable, Equatable {
        public let privatePort: Int
        public let publicPort: Int?
        public let type: String

        enum CodingKeys: String, CodingKey {
            case privatePort = "PrivatePort"
            case publicPort = "PublicPort"
            case type = "Type"
        }

        /// `8080→80/tcp`, or `5432/tcp` when not published.
        public var summary: String {
            (publicPort.map { "\($0)→" } ?? "") + "\(privatePort)/\(type)"
        }
    }

    public let id: String
    /// Docker's names start with `/`: `["/web"]`.
    public let names: [String]
    public let image: String
    /// `running`, `exited`, …
    public let state: String
    /// For people: `Up 5 minutes`.
    public let status: String
    public let ports: [Port]

    enum CodingKeys: String, CodingKey {
        case id = "Id"
        case names = "Names"
        case image = "Image"
        case state = "State"
        case status = "Status"
        case ports = "Ports"
    }

    /// The first name without its `/`, as `docker ps` shows it.
    public var name: String {
        String((names.first ?? id).drop { $0 == "/" })
    }
}
