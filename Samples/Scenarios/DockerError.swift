/// Docker's error body, `{"message":"No such container: x"}`: decoded from a refused call and
/// handed back as the `underlyingError` of its `NetworkError`.
public struct DockerError: Codable, Error, Sendable, Equatable {
    public let message: String
}
