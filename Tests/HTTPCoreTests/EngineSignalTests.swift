import CurlTransport
import Foundation
import HTTPCore
import Testing

/// The loop thread keeps `SIGPIPE` from killing the host process: libcurl is told not to touch
/// signals, so the engine blocks it on the one thread that calls libcurl, and leaves the
/// process's disposition alone.
@Suite("Engine: SIGPIPE", .timeLimit(.minutes(1)))
struct EngineSignalTests {
    /// The `SigBlk` masks of this process's threads named `name` (from `/proc/self/task`).
    private func blockedSignals(ofThreadsNamed name: String) throws -> [UInt64] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        return tasks.compactMap { task in
            guard let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8),
                  comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                  let status = try? String(contentsOfFile: "/proc/self/task/\(task)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("SigBlk:") })
            else { return nil }
            return UInt64(line.dropFirst("SigBlk:".count).trimmingCharacters(in: .whitespaces), radix: 16)
        }
    }

    private func disposition() -> UnsafeMutableRawPointer? {
        var action = sigaction()
        sigaction(SIGPIPE, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: UnsafeMutableRawPointer?.self)
    }

    @Test func theLoopThreadBlocksSIGPIPEAndTheProcessDispositionIsUnchanged() async throws {
        let before = disposition()
        let client = HTTPClient()
        let response = try await client.result(HTTPRequest(url: TestServer.endpoint("/get"))).get()
        #expect(response.statusCode == 200)
        let masks = try blockedSignals(ofThreadsNamed: "chain.curl-loop")
        #expect(!masks.isEmpty, "no loop thread found in /proc/self/task")
        let pipeBit = UInt64(1) << UInt64(SIGPIPE - 1)
        #expect(masks.allSatisfy { $0 & pipeBit != 0 }, "\(masks.map { String($0, radix: 16) })")
        #expect(disposition() == before)
        // The test's own thread is not changed.
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        #expect(sigismember(&current, SIGPIPE) == 0)
    }
}
