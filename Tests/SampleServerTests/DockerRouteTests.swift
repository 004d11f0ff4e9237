@testable import SampleServer
import Testing

/// Where a test's server listens: the same routes must answer the same over both.
enum Listener: String, CaseIterable, CustomTestStringConvertible {
    case tcp
    case unixSocket

    var testDescription: String { rawValue }

    /// A running server of this kind, and a way to open connections to it.
    struct Running {
        let server: SampleServer
        /// Keeps the socket file's directory until the test is done.
        let directory: TemporaryDirectory?

        func client() throws -> RawClient {
            if let path = server.unixSocketPath { return try RawClient(unixSocketPath: path) }
            return try RawClient(port: server.port)
        }
    }

    func start() throws -> Running {
        switch self {
        case .tcp:
            return Running(server: try SampleServer(), directory: nil)
        case .unixSocket:
            let directory = try TemporaryDirectory()
            return Running(server: try SampleServer(unixSocketPath: directory.file("docker.sock")), directory: directory)
        }
    }
}

/// The Docker Engine API subset the Unix-socket sample reads.
@Suite("SampleServer Docker routes")
struct DockerRouteTests {
    @Test("GET /v1.43/info: Docker's field names, counts that match the container list",
          arguments: Listener.allCases)
    func info(listener: Listener) throws {
        let running = try listener.start()
        defer { running.server.stop() }
        let response = try running.client().request("GET", "/v1.43/info")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        #expect(response.header("Api-Version") == "1.43")
        let info = response.json
        #expect(info["ID"]?.stringValue?.isEmpty == false)
        #expect(info["Containers"]?.intValue == 3)
        #expect(info["ContainersRunning"]?.intValue == 2)
        #expect(info["ContainersStopped"]?.intValue == 1)
        #expect(info["Images"]?.intValue == 3)
        #expect(info["ServerVersion"]?.stringValue == "24.0.7-sample")
        #expect(info["OperatingSystem"]?.stringValue == "Chain sample")
        #expect(info["NCPU"]?.intValue == 4)
        #expect(info["MemTotal"]?.intValue == 8_589_934_592)
    }

    @Test("GET /v1.43/containers/json lists the running containers; all=1 the stopped one too",
          arguments: Listener.allCases)
    func containers(listener: Listener) throws {
        let running = try listener.start()
        defer { running.server.stop() }
        let client = try running.client()
        let list = try client.request("GET", "/v1.43/containers/json")
        #expect(list.status == 200)
        let containers = list.json.arrayValue ?? []
        #expect(containers.map { $0["Names"]?.arrayValue?.first?.stringValue } == ["/web", "/db"])
        let web = try #require(containers.first)
        #expect(web["Id"]?.stringValue?.count == 64)
        #expect(web["Image"]?.stringValue == "nginx:1.25")
        #expect(web["State"]?.stringValue == "running")
        #expect(web["Status"]?.stringValue == "Up 5 minutes")
        #expect(web["Ports"] == [["PrivatePort": 80, "PublicPort": 8080, "Type": "tcp"]])
        #expect(containers.last?["Ports"] == [["PrivatePort": 5432, "Type": "tcp"]])

        // The same bytes every time: samples and tests may compare whole bodies.
        #expect(try client.request("GET", "/v1.43/containers/json").body == list.body)

        let all = try client.request("GET", "/v1.43/containers/json?all=1").json.arrayValue ?? []
        #expect(all.count == 3)
        #expect(all.last?["State"]?.stringValue == "exited")
        #expect(all.last?["Status"]?.stringValue == "Exited (0) 4 minutes ago")
    }

    @Test("GET /v1.43/containers/{id}/json by id, id prefix and name; 404 with Docker's message otherwise",
          arguments: Listener.allCases)
    func inspect(listener: Listener) throws {
        let running = try listener.start()
        defer { running.server.stop() }
        let client = try running.client()
        let web = try #require(DockerSample.containers.first)

        for reference in [web.id, String(web.id.prefix(12)), "web"] {
            let found = try client.request("GET", "/v1.43/containers/\(reference)/json")
            #expect(found.status == 200, "\(reference)")
            #expect(found.json["Id"]?.stringValue == web.id)
            #expect(found.json["Name"]?.stringValue == "/web")
            #expect(found.json["State"]?["Running"] == true)
        }

        let missing = try client.request("GET", "/v1.43/containers/nope/json")
        #expect(missing.status == 404)
        #expect(missing.header("Content-Type") == "application/json; charset=utf-8")
        #expect(missing.json == ["message": "No such container: nope"])

        // An empty prefix matches every container, so it names none.
        #expect(DockerSample.container(matching: "") == nil)
        #expect(try client.request("POST", "/v1.43/info").status == 405)
    }
}
