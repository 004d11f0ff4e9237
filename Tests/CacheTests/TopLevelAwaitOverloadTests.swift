import Dispatch
import Foundation
import Testing

/// Issue 21, item 23: in top-level code (a script, a `main.swift`), `await store.removeAll()`
/// must pick the async form and give an `Int`. Inside an async function the compiler already
/// prefers async overloads, so only top-level code shows the problem: this test type-checks a
/// `main.swift` against the built `Cache` module with the toolchain that built it.
@Suite("Top-level await overloads")
struct TopLevelAwaitOverloadTests {
    static let script = """
        import Cache
        import Foundation

        let store = DiskCache(directory: URL(fileURLWithPath: "/nonexistent/never-opened"))
        let removed = await store.removeAll()
        let older = await store.removeEntries(storedBefore: Date())
        await store.close()
        print(removed + older + 1)
        """

    /// Overload resolution does not depend on a sanitizer, and a plain `swiftc` is not known to
    /// import modules built for one: the sanitizer runs (`make tsan`, `make asan`) skip it.
    static let isPlainBuild = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil
        && ProcessInfo.processInfo.environment["ASAN_OPTIONS"] == nil

    @Test("await store.removeAll() in top-level code is the async form, and its result is an Int",
          .enabled(if: isPlainBuild, "type-checked against the plain build's modules only"))
    func topLevelAwaitPicksAsyncForm() async throws {
        // The test binary sits in the build folder, beside the modules it was linked with.
        let buildFolder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let modules = buildFolder.appendingPathComponent("Modules")
        let curlModuleMap = buildFolder.appendingPathComponent("CCurl.build/module.modulemap")
        try #require(FileManager.default.fileExists(atPath: modules.appendingPathComponent("Cache.swiftmodule").path),
                     "no Cache module beside the test binary at \(buildFolder.path)")
        let swiftc = try #require(Self.swiftc(), "no swiftc on PATH")

        let directory = try temporaryDirectory("top-level-await")
        defer { try? FileManager.default.removeItem(at: directory) }
        let main = directory.appendingPathComponent("main.swift")
        try Self.script.write(to: main, atomically: true, encoding: .utf8)

        let process = Process()
        process.executableURL = swiftc
        process.arguments = ["-typecheck", "-swift-version", "6", "-warnings-as-errors", "-I", modules.path,
                             "-Xcc", "-fmodule-map-file=\(curlModuleMap.path)", main.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let finished = Recorder<Int32>()
        process.terminationHandler = { finished.append($0.terminationStatus) }
        try process.run()
        // Reading until swiftc exits blocks: off the concurrency pool (see `offPool`).
        let reader = errors.fileHandleForReading
        let output = await offPool { String(decoding: reader.readDataToEndOfFile(), as: UTF8.self) }
        let status = await finished.wait(for: 1, timeout: 120).first
        #expect(status == 0, "top-level code did not type-check cleanly:\n\(output)")
    }

    /// `swiftc` from `PATH`, else beside the default toolchain.
    static func swiftc() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let candidates = path.split(separator: ":").map { "\($0)/swiftc" } + ["/opt/swift/usr/bin/swiftc", "/usr/bin/swiftc"]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(fileURLWithPath: $0) }
    }
}
