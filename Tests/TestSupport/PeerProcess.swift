import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An outside program run for a test (nginx, tinyproxy, danted, the TLS relay) that cannot
/// outlive the test process.
///
/// The program runs under a small `bash` guard in a session and process group of its own. The
/// guard gets `SIGTERM` when the test process ends, however it ends (`setpriv --pdeathsig`,
/// started from ``SpawnThread``), and on ``stop()``; either way it kills the whole group with
/// `SIGKILL`. The guard, not the program, carries the death signal because the kernel clears
/// it when a process changes its user (tinyproxy and danted drop to `nobody`), and because
/// nginx's and danted's children never had it. Peers still running at a normal exit are
/// stopped and their directories removed by an `atexit` handler.
///
/// The guard is started with `posix_spawn`, not Foundation's `Process`: children of `Process`
/// inherit the spawning thread's signal mask (Foundation's threads block nearly every signal,
/// so the guard would never see its `TERM`), and `Process` watches each child through a
/// socket the child must keep open, while the guard closes every descriptor it inherited
/// (it lives as long as the test process and would otherwise keep the tests' sockets open).
///
/// Standard output and error go to ``outputFile`` in the peer's directory.
public final class PeerProcess: Sendable {
    /// A label for messages (`nginx`, `tinyproxy`, …).
    public let name: String
    /// The peer's directory: its configuration, keys, logs and pid file.
    public let directory: URL
    /// The program's standard output and error.
    public let outputFile: URL
    /// The guard's process id (the program's process group is killed with it).
    public let processIdentifier: pid_t

    private struct State {
        /// The write end of the program's standard input, while open.
        var input: Int32?
        /// The guard's wait status once it has been reaped.
        var exitStatus: Int32?
        var stopped = false
    }

    private let state: Mutex<State>

    /// The guard, run as `guard DIRECTORY PROGRAM ARGUMENTS…`. It closes every descriptor but
    /// 0-2 it inherited, changes to the directory, then starts the program in a session of its own (`setsid`, which keeps the pid since an asynchronous job of a
    /// non-interactive shell leads no group), so `kill -- -PID` reaches everything it forks.
    private static let guardScript = """
        for fd in /proc/$$/fd/*; do
            n=${fd##*/}
            case $n in 0|1|2) ;; *) eval "exec $n<&-" 2>/dev/null ;; esac
        done
        cd "$1" || exit 126
        shift
        trap 'kill -KILL -- -"$child" 2>/dev/null; exit 143' TERM INT HUP
        setsid "$@" <&0 &
        child=$!
        wait "$child"
        status=$?
        kill -KILL -- -"$child" 2>/dev/null
        exit "$status"
        """

    /// Starts `command` (an absolute path and its arguments) with this process's environment
    /// and `environment` on top, in `directory`. Blocking for as long as a spawn takes.
    /// Defaults: no extra environment, standard input from `/dev/null`
    /// (`keepsStandardInputOpen` gives it a pipe that ``stop()`` closes, for programs that end
    /// at end of input).
    /// - Throws: ``TestFailure`` when the command cannot be started.
    public init(name: String, command: [String], environment: [String: String] = [:], directory: URL,
                keepsStandardInputOpen: Bool = false) throws {
        guard let executable = command.first, FileManager.default.isExecutableFile(atPath: executable) else {
            throw TestFailure("\(name): \(command.first ?? "no command") is not installed (run scripts/install-deps)")
        }
        self.name = name
        self.directory = directory
        outputFile = directory.appendingPathComponent("\(name).out")
        let output = open(outputFile.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw TestFailure("\(name): cannot create \(outputFile.path)") }
        defer { close(output) }
        var input: (read: Int32, write: Int32?)
        if keepsStandardInputOpen {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw TestFailure("\(name): pipe() failed") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            input = (ends[0], ends[1])
        } else {
            input = (open("/dev/null", O_RDONLY | O_CLOEXEC), nil)
            guard input.read >= 0 else { throw TestFailure("\(name): cannot open /dev/null") }
        }
        defer { close(input.read) }
        let arguments = ["/usr/bin/setpriv", "--pdeathsig", "TERM", "--", "/bin/bash", "-c", PeerProcess.guardScript, "guard",
                         directory.path] + command
        let variables = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0)=\($1)" }
        let spawned = try SpawnThread.shared.run { [input] in
            PeerProcess.spawn(arguments, environment: variables, standardInput: input.read, output: output)
        }
        guard let pid = spawned else {
            if let end = input.write { close(end) }
            throw TestFailure("\(name): posix_spawn of \(arguments[0]) failed")
        }
        processIdentifier = pid
        state = Mutex(State(input: input.write))
        PeerProcess.live.withLock { $0[ObjectIdentifier(self)] = Exit(pid: pid, directory: directory) }
        _ = PeerProcess.installExitHandler
    }

    deinit { stop() }

    /// Whether the program (its guard) still runs.
    public var isRunning: Bool {
        state.withLock { state in
            if state.exitStatus != nil { return false }
            var status: Int32 = 0
            switch waitpid(processIdentifier, &status, WNOHANG) {
            case 0:
                return true
            case processIdentifier:
                state.exitStatus = status
            default:
                // Reaped by someone else (ECHILD): gone, status unknown.
                state.exitStatus = 0xFF00
            }
            return false
        }
    }

    /// The guard's exit status (the program's, or 128 + a signal), once it ended; `nil` before.
    public var terminationStatus: Int32? {
        guard !isRunning, let status = state.withLock({ $0.exitStatus }) else { return nil }
        return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    }

    /// What the program printed so far (its standard output and error).
    public func output() -> String {
        (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }

    /// Waits until something accepts TCP connections on 127.0.0.1:`port` (polling: readiness
    /// of an outside program is the one thing tests may poll for), or throws when the program
    /// ends first or `timeout` seconds pass. Default 15 s. `log` (the program's own error
    /// log, when it has one) goes into the failure's message with ``output()``.
    /// - Throws: ``TestFailure`` with the program's output and log.
    public func waitUntilAccepting(port: Int, timeout: TimeInterval = 15, log: URL? = nil) throws {
        try waitUntil(timeout: timeout, what: "127.0.0.1:\(port)", log: log) { PeerProcess.accepts(port: port) }
    }

    /// Waits until something accepts connections on the Unix socket at `path`; as
    /// ``waitUntilAccepting(port:timeout:log:)`` otherwise.
    /// - Throws: ``TestFailure`` with the program's output and log.
    public func waitUntilAccepting(unixSocket path: String, timeout: TimeInterval = 15, log: URL? = nil) throws {
        try waitUntil(timeout: timeout, what: path, log: log) { PeerProcess.accepts(unixSocket: path) }
    }

    /// A failure naming this peer, with its output and `log` (the last 4,000 characters of each).
    public func failure(_ message: String, log: URL? = nil) -> TestFailure {
        var text = "\(name): \(message)"
        let printed = output()
        if !printed.isEmpty { text += "\n--- output:\n" + String(printed.suffix(4000)) }
        if let log, let logged = try? String(contentsOf: log, encoding: .utf8), !logged.isEmpty {
            text += "\n--- \(log.lastPathComponent):\n" + String(logged.suffix(4000))
        }
        return TestFailure(text)
    }

    /// Ends the program and everything it started (the guard kills their process group) and
    /// waits for the guard (at most 5 s, then it is killed). The directory stays: its owner
    /// removes it. Later calls do nothing.
    public func stop() {
        let input = state.withLock { state -> Int32?? in
            if state.stopped { return .none }
            state.stopped = true
            defer { state.input = nil }
            return .some(state.input)
        }
        guard let input else { return }
        PeerProcess.live.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(self)) }
        if let input { close(input) }
        guard isRunning else { return }
        kill(processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while isRunning && Date() < deadline { usleep(2_000) }
        if isRunning {
            kill(processIdentifier, SIGKILL)
            while isRunning { usleep(2_000) }
        }
    }

    /// Runs `attempt` in a new temporary directory named after `label`, up to `attempts` times
    /// (default 3): a free port may be taken by another program between choosing and binding
    /// it. A failed attempt's directory is removed; the last failure is thrown.
    public static func inFreshDirectory<T>(_ label: String, attempts: Int = 3, _ attempt: (URL) throws -> T) throws -> T {
        var tries = 0
        while true {
            tries += 1
            let directory = try temporaryDirectory(label)
            do {
                return try attempt(directory)
            } catch {
                try? FileManager.default.removeItem(at: directory)
                if tries >= attempts { throw error }
            }
        }
    }

    /// Starts a peer (see ``init(name:command:environment:directory:keepsStandardInputOpen:)``)
    /// and waits until `ready` returns; a peer that does not get ready is stopped again.
    /// - Throws: what starting or `ready` threw.
    public static func started(name: String, command: [String], environment: [String: String] = [:], directory: URL,
                               keepsStandardInputOpen: Bool = false,
                               ready: (PeerProcess) throws -> Void) throws -> PeerProcess {
        let process = try PeerProcess(name: name, command: command, environment: environment, directory: directory,
                                      keepsStandardInputOpen: keepsStandardInputOpen)
        do {
            try ready(process)
        } catch {
            process.stop()
            throw error
        }
        return process
    }

    /// A TCP port on 127.0.0.1 that was free a moment ago (bound with port 0, then closed). A
    /// peer that loses the race to another program fails to start; its launcher tries again.
    /// - Throws: ``TestFailure`` when no socket can be bound.
    public static func freePort() throws -> Int {
        let (fd, port) = try boundLoopbackSocket()
        close(fd)
        return port
    }

    /// A TCP port on 127.0.0.1 where every connection is refused for as long as this test
    /// process runs: a socket bound to it that never listens holds it, so no peer started in
    /// parallel can be given it (as it can a port from ``freePort()``).
    /// - Throws: ``TestFailure`` when no socket could be bound.
    public static func refusingPort() throws -> Int {
        try refusing.get()
    }

    private static let refusing = Result { () throws(TestFailure) -> Int in
        // Held until the process exits, on purpose.
        try boundLoopbackSocket().port
    }

    private static func boundLoopbackSocket() throws(TestFailure) -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket() failed") }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = bound == 0 ? withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        } : -1
        guard named == 0 else {
            close(fd)
            throw TestFailure(bound == 0 ? "getsockname() failed" : "bind() failed")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Runs a short-lived tool (`openssl`) through `env` to its end and returns its standard
    /// output (blocking).
    /// - Throws: ``TestFailure`` with its standard error when it fails.
    @discardableResult
    static func runTool(_ arguments: [String], in directory: URL) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        let errors = directory.appendingPathComponent("tool-errors.txt")
        guard FileManager.default.createFile(atPath: errors.path, contents: nil),
              let errorHandle = FileHandle(forWritingAtPath: errors.path) else {
            throw TestFailure("cannot create \(errors.path)")
        }
        defer { try? FileManager.default.removeItem(at: errors) }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errorHandle
        try process.run()
        try? errorHandle.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw TestFailure("\(arguments.prefix(2).joined(separator: " ")) failed: \(message)")
        }
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Private

    private func waitUntil(timeout: TimeInterval, what: String, log: URL?, _ ready: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !ready() {
            guard isRunning else {
                throw failure("ended with status \(terminationStatus ?? -1) before \(what) accepted connections", log: log)
            }
            guard Date() < deadline else {
                stop()
                throw failure("\(what) did not accept connections within \(Int(timeout)) s", log: log)
            }
            usleep(10_000)
        }
    }

    /// `posix_spawn` with an empty signal mask and default dispositions for the signals the
    /// guard and the peers rely on; `nil` when it fails.
    private static func spawn(_ arguments: [String], environment: [String], standardInput: Int32, output: Int32) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        posix_spawn_file_actions_adddup2(&actions, output, 1)
        posix_spawn_file_actions_adddup2(&actions, output, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var mask = sigset_t()
        sigemptyset(&mask)
        posix_spawnattr_setsigmask(&attributes, &mask)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGCHLD, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in argv + envp { free(pointer) }
        }
        var pid = pid_t()
        guard posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp) == 0 else { return nil }
        return pid
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        } == 0
    }

    private static func accepts(unixSocket path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// What the exit handler does for a peer still running.
    private struct Exit: Sendable {
        let pid: Int32
        let directory: URL
    }

    private static let live = Mutex<[ObjectIdentifier: Exit]>([:])
    private static let directoriesToRemove = Mutex<[URL]>([])

    /// Removes `directory` at a normal exit of the process (for what a process keeps to its
    /// end, such as the shared ``TestCA``).
    static func removeAtExit(_ directory: URL) {
        directoriesToRemove.withLock { $0.append(directory) }
        _ = installExitHandler
    }

    /// Peers kept for the whole process (a suite's shared instance) are never deinitialized:
    /// at a normal exit their guards are told to stop and their directories removed.
    private static let installExitHandler: Void = {
        atexit {
            for exit in PeerProcess.live.withLock({ Array($0.values) }) {
                kill(exit.pid, SIGTERM)
                try? FileManager.default.removeItem(at: exit.directory)
            }
            for directory in PeerProcess.directoriesToRemove.withLock({ $0 }) {
                try? FileManager.default.removeItem(at: directory)
            }
        }
    }()
}
