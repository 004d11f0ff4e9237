@testable import Cache
import CurlTransport
import Foundation
import Glibc
import HTTPCore
import HTTPFeatures
import Testing

/// A writer killed with SIGKILL at random moments never leaves a damaged entry behind: after
/// every kill, whatever reads back verifies, and no temporary file survives a reopen.
///
/// The writer is this test binary itself, spawned to run only ``crashWriterChild()`` with
/// `CHAIN_CACHE_CRASH_DIR` set; it reports each committed write on file descriptor 3.
@Suite("Crash safety")
struct CrashSafetyTests {
    static let directoryVariable = "CHAIN_CACHE_CRASH_DIR"
    static let keyCount = 8
    static let kills = 100

    static func request(_ slot: Int) -> HTTPRequest {
        HTTPRequest(url: URL(string: "https://crash.example/slot/\(slot)") ?? URL(fileURLWithPath: "/"))
    }

    /// The body for a sequence number: its length and bytes both derive from it, so a body
    /// from one write next to metadata from another cannot pass for valid.
    static func body(_ sequence: Int) -> Data {
        // String(repeating:) runs in the optimised standard library, so the child spends
        // its time writing rather than making bytes, and kills land inside writes more often.
        let unit = "seq-\(sequence);"
        return Data(String(repeating: unit, count: (20_000 + (sequence * 7_919) % 180_000) / unit.utf8.count).utf8)
    }

    /// The writer. In a normal test run (no directory in the environment) it does nothing.
    @Test("child: writes entries until killed")
    func crashWriterChild() throws {
        guard let path = ProcessInfo.processInfo.environment[Self.directoryVariable] else { return }
        let store = DiskCache(directory: URL(fileURLWithPath: path), maximumSize: 4 * 1024 * 1024)
        var sequence = Int(getpid()) * 1000
        while true {
            sequence += 1
            let request = Self.request(sequence % Self.keyCount)
            guard let key = CacheKey(request: request) else { return }
            let entry = CacheEntry(key: key, url: request.url, statusCode: 200, headers: ["X-Sequence": String(sequence)],
                                   body: Self.body(sequence), requestSentAt: Date(), storedAt: Date())
            if store.writeEntry(entry) {
                var byte: UInt8 = 1
                _ = write(3, &byte, 1)
            }
        }
    }

    // Two minutes: the test spawns this test binary 100 times, which takes 20-30 s on an idle
    // machine and over a minute on a loaded one or under ThreadSanitizer.
    @Test("SIGKILL at random moments never leaves a damaged or half-written entry",
          .timeLimit(.minutes(2)))
    func killedWriter() async throws {
        try await withTemporaryDirectory { directory in
            let executable = try #require(Self.executablePath())
            // A hundred spawns, polls and reaps: off the concurrency pool (see `offPool`).
            let rounds = await offPool { Self.killRounds(executable: executable, directory: directory) }
            let failures = rounds.compactMap(\.failure)
            #expect(failures.isEmpty, "\(failures.prefix(3))")
            let completedWrites = rounds.reduce(0) { $0 + $1.reported }
            let interruptedWrites = rounds.filter(\.isInterrupted).count
            #expect(completedWrites >= Self.kills)
            // Not a guarantee of the design, but without it the test would prove little.
            #expect(interruptedWrites > 0)

            let events = Recorder<CacheEvent>()
            let store = DiskCache(directory: directory, maximumSize: 4 * 1024 * 1024, reporter: { events.append($0) })
            var readable = 0
            for slot in 0..<Self.keyCount {
                let key = try #require(CacheKey(request: Self.request(slot)))
                guard let entry = store.readEntry(for: key) else { continue }
                readable += 1
                let sequence = try #require(entry.headers["X-Sequence"].flatMap { Int($0) })
                #expect(sequence % Self.keyCount == slot)
                #expect(entry.body == Self.body(sequence), "slot \(slot) holds a body that is not sequence \(sequence)'s")
            }
            #expect(readable > 0)
            #expect(!entryFiles(directory).contains { $0.hasPrefix(".tmp-") })
            // Every body on disk belongs to a metadata file: orphans were removed at open.
            let files = entryFiles(directory)
            #expect(files.filter { $0.hasSuffix(".body") }.count == files.filter { $0.hasSuffix(".meta") }.count)
            let damaged = events.values.filter { if case .corruptedEntry = $0 { true } else { false } }
            #expect(damaged.isEmpty, "\(damaged)")
        }
    }

    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return CommandLine.arguments.first }
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One round of ``killRounds(executable:directory:)``.
    struct Round: Sendable {
        /// The committed writes the writer reported before its kill.
        var reported = 0
        /// Whether the kill landed inside a write: a temporary file, or a body without metadata.
        var isInterrupted = false
        /// Why the round went wrong, if it did.
        var failure: String?
    }

    /// Runs ``kills`` rounds of ``spawnAndKill(executable:directory:writesBeforeKill:)``,
    /// looking at the directory after each. Blocking: call it through `offPool`.
    static func killRounds(executable: String, directory: URL) -> [Round] {
        (0..<kills).map { round in
            var result = Round()
            do {
                let writesBeforeKill = 1 + round % 3
                let (reported, status) = try spawnAndKill(executable: executable, directory: directory,
                                                          writesBeforeKill: writesBeforeKill)
                result.reported = reported
                if reported < writesBeforeKill {
                    result.failure = "round \(round): the writer stopped before writing (status \(status))"
                }
            } catch {
                result.failure = "round \(round): \(error)"
            }
            let files = entryFiles(directory)
            let metadata = Set(files.filter { $0.hasSuffix(".meta") }.map { String($0.prefix(64)) })
            result.isInterrupted = files.contains(where: { $0.hasPrefix(".tmp-") })
                || files.filter({ $0.hasSuffix(".body") }).count > metadata.count
            return result
        }
    }

    /// Starts a writer, waits (bounded by `poll`) until it reports `writesBeforeKill`
    /// committed writes, lets it run a random few hundred microseconds more so the kill
    /// lands anywhere in a write, kills it and reaps it. Returns the writes it reported and
    /// its wait status. Blocking, and records no issue itself (it runs off the test's task).
    static func spawnAndKill(executable: String, directory: URL, writesBeforeKill: Int) throws -> (reported: Int, status: Int32) {
        var fds: [Int32] = [-1, -1]
        // Close-on-exec from the start (a socket pair: Glibc's module has no pipe2): other suites
        // start processes meanwhile, and a child of theirs holding the writer's end would keep
        // it open after the writer died.
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw TestFailure("socketpair failed: errno \(errno)")
        }
        defer { close(fds[0]) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, fds[1], 3)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let arguments = [executable, "--testing-library", "swift-testing",
                         "--filter", "CrashSafetyTests/crashWriterChild"]
        var environment = ProcessInfo.processInfo.environment
        environment[directoryVariable] = directory.path
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        close(fds[1])
        guard spawned == 0 else { throw TestFailure("posix_spawn failed: \(spawned)") }

        var reported = 0
        var buffer = [UInt8](repeating: 0, count: 64)
        while reported < writesBeforeKill {
            var descriptor = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 15_000) > 0 else { break }
            let count = read(fds[0], &buffer, buffer.count)
            if count <= 0 { break }
            reported += count
        }
        usleep(UInt32.random(in: 0...800))
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return (reported, status)
    }
}
