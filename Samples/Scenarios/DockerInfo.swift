/// What a Docker daemon's `GET /info` says about itself (a few of its many fields), in
/// Docker's own capitalised key names.
public struct DockerInfo: Codable, Sendable, Equatable {
    public let id: String
    public let containers: Int
    public let containersRunning: Int
    public let images: Int
    public let serverVersion: String
    public let operatingSystem: String
    public let ncpu: Int
    /// Bytes of memory.
    public let memTotal: Int

    enum CodingKeys: String, CodingKey {
        case id = "ID"
        case containers = "Containers"
        case containersRunning = "ContainersRunning"
        case images = "Images"
        case serverVersion = "ServerVersion"
        case operatingSystem = "OperatingSystem"
        case ncpu = "NCPU"
        case memTotal = "MemTotal"
    }
}
