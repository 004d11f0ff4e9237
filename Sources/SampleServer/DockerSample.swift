/// The fixed daemon behind the Docker routes: three containers (two running) from three images.
enum DockerSample {
    /// What one sample container is made of.
    struct Container {
        let id: String
        let name: String
        let image: String
        let imageID: String
        let command: String
        /// Seconds since 1970 (Docker's `Created` in the list).
        let created: Int
        let isRunning: Bool
        let status: String
        let ports: [(privatePort: Int, publicPort: Int?)]

        /// The `/containers/json` entry.
        var summary: JSONValue {
            [
                "Id": .string(id),
                "Names": [.string("/\(name)")],
                "Image": .string(image),
                "ImageID": .string("sha256:\(imageID)"),
                "Command": .string(command),
                "Created": .int(created),
                "Ports": .array(ports.map { port in
                    var members: [(String, JSONValue)] = [("PrivatePort", .int(port.privatePort))]
                    if let publicPort = port.publicPort {
                        members.append(("PublicPort", .int(publicPort)))
                    }
                    members.append(("Type", "tcp"))
                    return .object(members)
                }),
                "State": isRunning ? "running" : "exited",
                "Status": .string(status),
            ]
        }

        /// The `/containers/{id}/json` body (a subset of Docker's).
        var inspection: JSONValue {
            [
                "Id": .string(id),
                "Name": .string("/\(name)"),
                "Image": .string("sha256:\(imageID)"),
                "Config": ["Image": .string(image), "Cmd": .array(command.split(separator: " ").map { .string(String($0)) })],
                "State": [
                    "Status": isRunning ? "running" : "exited",
                    "Running": .bool(isRunning),
                    "ExitCode": 0,
                ],
            ]
        }
    }

    /// Headers Docker sends with every answer.
    static let headers = [("Api-Version", "1.43"), ("Docker-Experimental", "false"), ("Ostype", "linux")]

    static let containers: [Container] = [
        Container(id: "7c2dc43b3681e48ef0be3b499c558ca3b701c78bf47f2cafbba8bafac8e3774f", name: "web",
                  image: "nginx:1.25", imageID: "71ffb785fad47b6fa6fb8bc0f794a4f72171592d8e406f450beb76771a8d1bae",
                  command: "nginx -g daemon off;", created: 1_700_000_000, isRunning: true, status: "Up 5 minutes",
                  ports: [(privatePort: 80, publicPort: 8080)]),
        Container(id: "d429617b4cfecbae7e2102aa0cffe6e57590713b9802e575a001a7d83d603c9d", name: "db",
                  image: "postgres:16", imageID: "e56b32ac7bfbb039cb4dccb979949235c168d0a06e604fa9d96befadff720ad0",
                  command: "docker-entrypoint.sh postgres", created: 1_700_000_000, isRunning: true,
                  status: "Up 5 minutes", ports: [(privatePort: 5432, publicPort: nil)]),
        Container(id: "47365bd09ec57d82b87d4726133ff91f9be5dc401d30ab31aac962f5c7263258", name: "migrate",
                  image: "alpine:3.19", imageID: "d1a832a8edf3908e7ccfbb68efd1a4ef6b6e5290ec46c4e93bb995fb57f2b9c2",
                  command: "/bin/sh -c ./migrate", created: 1_700_000_000, isRunning: false,
                  status: "Exited (0) 4 minutes ago", ports: []),
    ]

    /// The `/info` body: a subset of Docker's fields, with numbers that match `containers`.
    static let info: JSONValue = [
        "ID": "3df27364-8222-4024-b0e7-30ab31aac962",
        "Containers": .int(containers.count),
        "ContainersRunning": .int(containers.filter(\.isRunning).count),
        "ContainersPaused": 0,
        "ContainersStopped": .int(containers.filter { !$0.isRunning }.count),
        "Images": 3,
        "Driver": "overlay2",
        "ServerVersion": "24.0.7-sample",
        "OperatingSystem": "Chain sample",
        "OSType": "linux",
        "Architecture": "x86_64",
        "NCPU": 4,
        "MemTotal": 8_589_934_592,
        "Name": "chain-sample",
    ]

    /// The container whose id is or starts with `reference`, or whose name is `reference`
    /// (a leading `/` allowed); nil if none, or if an id prefix is ambiguous.
    static func container(matching reference: String) -> Container? {
        guard !reference.isEmpty else { return nil }
        let name = reference.hasPrefix("/") ? String(reference.dropFirst()) : reference
        if let named = containers.first(where: { $0.name == name }) { return named }
        let prefixed = containers.filter { $0.id.hasPrefix(reference.lowercased()) }
        return prefixed.count == 1 ? prefixed[0] : nil
    }
}
