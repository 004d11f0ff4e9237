import Foundation
import Synchronization

/// Our hostile HTTP/1.1 peer (`Tests/HostilePeer/hostile_peer.py`), started on a free port on
/// 127.0.0.1 for one test or suite and stopped by ``stop()`` or when this object goes away.
///
/// Each request's first path segment names a scenario (see the `scenarios_*.py` files): a
/// fake status line, a smuggled response, a connection that dies after a request, and so on.
/// The peer logs every request it read; ``recordedRequests()`` reads that log, so a test can
/// count what reached the server (a POST sent twice, the connection a request arrived on).
public final class HostilePeer: Sendable {
    /// One request as the peer read it.
    public struct RecordedRequest: Sendable, Decodable {
        public let scenario: String
        public let method: String
        public let path: String
        public let target: String
        /// The peer's number for the connection (1, 2, … in accept order).
        public let connection: Int
        /// 0 for the first request on its connection.
        public let index: Int
        public let bodyLength: Int
        public let headers: [[String]]

        /// The value of the first field named `name` (case-insensitive), or `nil`.
        public func header(_ name: String) -> String? {
            headers.first { $0.first?.lowercased() == name.lowercased() }?.last
        }
    }

    public let port: Int
    private let process: Process
    private let input: Pipe
    private let directory: URL
    private let logFile: URL

    /// Starts a peer from async code: the start blocks until python prints the port, so it
    /// runs on a thread of its own, not on the concurrency pool every suite shares.
    /// - Throws: ``TestFailure`` when python3 or the script cannot be started.
    public static func start(filePath: String = #filePath) async throws -> HostilePeer {
        try await offPool { Result { try HostilePeer(filePath: filePath) } }.get()
    }

    /// Starts the peer and waits for it to print its port (blocking: from async code, use ``start(filePath:)``).
    /// - Throws: ``TestFailure`` when python3 or the script cannot be started.
    public init(filePath: String = #filePath) throws {
        let script = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("HostilePeer/hostile_peer.py")
        directory = try temporaryDirectory("hostile-peer")
        logFile = directory.appendingPathComponent("requests.jsonl")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, "--log", logFile.path]
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.standardError
        try process.run()
        // The first line is the port; nothing else is printed.
        var text = ""
        while !text.contains("\n") {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break }
            text += String(decoding: data, as: UTF8.self)
        }
        guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw TestFailure("the hostile peer did not start (\(script.path)): \(text)")
        }
        self.port = port
    }

    deinit { stop() }

    /// `http://127.0.0.1:PORT` + `path` (which starts with `/`).
    public func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// The string form of ``url(_:)``.
    public func urlString(_ path: String) -> String { url(path).absoluteString }

    /// Every request the peer has read so far, in order.
    public func recordedRequests() -> [RecordedRequest] {
        guard let data = FileManager.default.contents(atPath: logFile.path) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? decoder.decode(RecordedRequest.self, from: Data($0)) }
    }

    /// The requests the peer read whose path starts with `prefix`.
    public func recordedRequests(pathPrefix prefix: String) -> [RecordedRequest] {
        recordedRequests().filter { $0.path.hasPrefix(prefix) }
    }

    /// Stops the peer (closing its standard input ends it) and removes its directory.
    public func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: directory)
    }
}
