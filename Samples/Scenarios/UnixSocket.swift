import AFStyle
import Foundation

/// A local daemon reached through a socket file instead of a port — the way the Docker CLI
/// talks to `/var/run/docker.sock`. The sample server plays the daemon on a Unix socket in a
/// temporary directory and answers a small part of the Docker Engine API; the sample reads
/// it with both of Chain's ways of naming the socket, with a configuration that sends every
/// call there, and through `HTTPSessionManager`.
///
/// It starts its own server because that one listens on a socket file, not on the port the
/// other samples share.
public enum UnixSocketSample {
    public static func run(output: SampleOutput) async throws {
        // A directory of our own: only this user can reach the socket, and the path stays
        // short (a socket path may have at most 107 bytes).
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("chain-unix-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let socket = directory.appendingPathComponent("docker.sock").path
        let server = try SampleServer(unixSocketPath: socket)
        defer { server.stop() }
        output.say("(this sample starts a server of its own on the Unix socket \(socket), "
                   + "as dockerd listens on /var/run/docker.sock)")

        try await readInfo(socket: socket, output: output)
        try await listContainers(socket: socket, output: output)
        try await inspect(socket: socket, output: output)
        try await listWithSessionManager(socket: socket, output: output)
    }

    /// The `http+unix` URL form: the socket's path, percent-encoded, is the URL's host, so one
    /// string says both where to connect and what to ask for.
    static func readInfo(socket: String, output: SampleOutput) async throws {
        let url = "http+unix://\(percentEncoded(socket))/v1.43/info"
        output.say("1) An http+unix URL, the socket path as its host:")
        output.say("   GET \(url)")
        // The callback form, wrapped in a continuation only so this async sample can wait for it.
        let info: DockerInfo = try await withCheckedThrowingContinuation { continuation in
            Request.url(url).response(DockerInfo.self) { result in continuation.resume(with: result) }
        }
        let memory = String(format: "%.1f", Double(info.memTotal) / Double(1 << 30))
        output.say("   Docker \(info.serverVersion) on \(info.operatingSystem): \(info.containersRunning) of "
                   + "\(info.containers) containers running, \(info.images) images, \(info.ncpu) CPUs, \(memory) GiB")
        try expect(info.serverVersion == "24.0.7-sample" && info.containersRunning == 2 && info.containers == 3,
                   "Docker 24.0.7-sample with 2 of 3 containers running")
    }

    /// An ordinary URL, sent through the socket: the host only fills the `Host` header.
    static func listContainers(socket: String, output: SampleOutput) async throws {
        output.say("2) An http URL sent through the socket with .unixSocket(path):")
        output.say("   GET http://localhost/v1.43/containers/json")
        let containers = try await Request.url("http://localhost/v1.43/containers/json")
            .unixSocket(socket)
            .value([Container].self)
        let nameWidth = containers.map(\.name.count).max() ?? 0
        let imageWidth = containers.map(\.image.count).max() ?? 0
        for container in containers {
            let ports = container.ports.map(\.summary).joined(separator: ", ")
            output.say("   \(padded(container.name, nameWidth))  \(padded(container.image, imageWidth))  "
                       + "\(container.id.prefix(12))  \(container.status)  \(ports)")
        }
        try expect(containers.map(\.name) == ["web", "db"], "the running containers web and db")
        try expect(containers.first?.ports.first?.summary == "8080→80/tcp", "web publishing port 80 on 8080")
    }

    /// One configuration sends every call through the socket; Docker's `{"message": …}` body
    /// of a refused call comes back as a typed `DockerError`.
    static func inspect(socket: String, output: SampleOutput) async throws {
        guard let baseURL = URL(string: "http://localhost/v1.43/") else { throw SampleFailure("a valid base URL") }
        var docker = ChainConfiguration(baseURL: baseURL, errorBody: ErrorBodyDecoder(DockerError.self))
        docker.unixSocket = socket
        output.say("3) A configuration for every call (ChainConfiguration.unixSocket), Docker's error body typed:")

        let all = try await docker.url("containers/json").query(["all": "1"]).value([Container].self)
        output.say("   GET containers/json?all=1 → \(all.map { "\($0.name) (\($0.state))" }.joined(separator: ", "))")
        try expect(all.count == 3 && all.last?.state == "exited", "three containers, the last one exited")

        let web = try await docker.url("containers/web/json").value(ContainerInspection.self)
        output.say("   GET containers/web/json → \(web.name) is \(web.state.status), id \(web.id.prefix(12))")
        try expect(web.state.running, "web to be running")

        let refused = try await expectFailure("an unknown container") {
            try await docker.url("containers/nope/json").value(ContainerInspection.self)
        }
        guard let body = refused.underlyingError as? DockerError else {
            throw SampleFailure("Docker's {\"message\"} body with the 404, got: \(refused)")
        }
        output.say("   GET containers/nope/json → refused with HTTP \(refused.statusCode ?? 0): \(body.message)")
        try expect(refused.kind == .unacceptableStatus(404) && body.message == "No such container: nope",
                   "HTTP 404 with \"No such container: nope\"")
    }

    /// The AFNetworking way: the manager's `unixSocketPath` sends its calls through the socket.
    static func listWithSessionManager(socket: String, output: SampleOutput) async throws {
        let manager = HTTPSessionManager(baseURL: URL(string: "http://localhost/v1.43/"))
        manager.unixSocketPath = socket
        output.say("4) HTTPSessionManager with unixSocketPath:")
        let containers = try await AFStyleSample.call { done in
            manager.GET("containers/json", as: [Container].self,
                        success: { _, containers in done(.success(containers)) },
                        failure: { _, error in done(.failure(error)) })
        }
        output.say("   GET containers/json → \(containers.map(\.name).joined(separator: ", "))")
        try expect(containers.map(\.name) == ["web", "db"], "web and db")
    }

    /// `path` with everything but RFC 3986's unreserved characters percent-encoded (`/` → `%2F`).
    static func percentEncoded(_ path: String) -> String {
        let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        return path.addingPercentEncoding(withAllowedCharacters: unreserved) ?? path
    }

    private static func padded(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}
