@testable import Cookies
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing

@Suite struct PersistenceTests {
    let clock = ManualClock()

    private func mode(of file: URL) throws -> mode_t {
        var status = stat()
        guard stat(file.path, &status) == 0 else { throw TestFailure("stat \(file.path): errno \(errno)") }
        return status.st_mode & 0o777
    }

    private func document(at file: URL) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        return try #require(object as? [String: Any])
    }

    @Test func roundTripKeepsPersistentCookiesInMode0600() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cookies.json")
            let jar = CookieJar(fileURL: file, clock: clock.reading)
            #expect(jar.loadError == nil)
            try jar.receive("p=1; Max-Age=3600; Secure; HttpOnly; SameSite=Lax; Domain=example.com; Path=/app", from: "https://www.example.com/")
            try jar.receive("s=1", from: "https://www.example.com/")
            try jar.flush()
            #expect(jar.lastSaveError == nil)
            #expect(try mode(of: file) == 0o600)
            #expect(try document(at: file)["version"] as? Int == 1)

            let reloaded = CookieJar(fileURL: file, clock: clock.reading)
            #expect(reloaded.loadError == nil)
            #expect(reloaded.allCookies == [try #require(jar.only("p"))])
            #expect(try reloaded.header("https://shop.example.com/app/x") == "p=1")
            // No temporary file is left behind.
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["cookies.json"])
        }
    }

    @Test func saveNarrowsAWiderModeTo0600() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cookies.json")
            try Data("{\"version\": 1, \"cookies\": []}".utf8).write(to: file)
            #expect(chmod(file.path, 0o644) == 0)
            let jar = CookieJar(fileURL: file, clock: clock.reading)
            #expect(jar.loadError == nil)
            try jar.receive("a=1; Max-Age=60", from: "https://example.com/")
            try jar.flush()
            #expect(try mode(of: file) == 0o600)
        }
    }

    @Test func sessionCookiesArePersistedOnlyWhenAsked() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cookies.json")
            let jar = CookieJar(fileURL: file, persistsSessionCookies: true, clock: clock.reading)
            try jar.receive("s=1", from: "https://example.com/")
            try jar.flush()
            let withSessions = CookieJar(fileURL: file, persistsSessionCookies: true, clock: clock.reading)
            #expect(withSessions.allCookies.map(\.name) == ["s"])
            let withoutSessions = CookieJar(fileURL: file, clock: clock.reading)
            #expect(withoutSessions.allCookies.isEmpty)
        }
    }

    @Test func expiredCookiesAreDroppedAtLoadAndAtSave() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cookies.json")
            let jar = CookieJar(fileURL: file, clock: clock.reading)
            try jar.receive("short=1; Max-Age=10", from: "https://example.com/")
            try jar.receive("long=1; Max-Age=1000", from: "https://example.com/")
            try jar.flush()
            #expect((try document(at: file)["cookies"] as? [Any])?.count == 2)
            clock.advance(by: 20)
            #expect(CookieJar(fileURL: file, clock: clock.reading).allCookies.map(\.name) == ["long"])
            try jar.receive("other=1; Max-Age=1000", from: "https://example.com/")
            try jar.flush()
            let names = (try document(at: file)["cookies"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
            #expect(names.map(Set.init) == ["long", "other"])
        }
    }

    @Test func damagedFileGivesAnEmptyJarAndIsReplacedByTheNextSave() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cookies.json")
            try Data("{\"version\": 1, \"cookies\": [{\"name\": ".utf8).write(to: file)
            let jar = CookieJar(fileURL: file, clock: clock.reading)
            #expect(jar.loadError?.kind == .damaged)
            #expect(jar.loadError?.description.contains(file.path) == true)
            #expect(jar.allCookies.isEmpty)
            try jar.receive("a=1; Max-Age=60", from: "https://example.com/")
            try jar.flush()
            let reloaded = CookieJar(fileURL: file, clock: clock.reading)
            #expect(reloaded.loadError == nil)
            #expect(reloaded.allCookies.map(\.name) == ["a"])
        }
    }

    @Test(arguments: ["not json at all", "[1, 2, 3]", "{\"cookies\": []}", "{\"version\": 1}",
                      "{\"version\": 1, \"cookies\": [{\"name\": 5}]}", ""])
    func otherDamageIsALoadError(_ contents: String) throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cookies.json")
            try Data(contents.utf8).write(to: file)
            let jar = CookieJar(fileURL: file, clock: clock.reading)
            #expect(jar.loadError?.kind == .damaged)
            #expect(jar.allCookies.isEmpty)
        }
    }

    @Test func unknownVersionIsALoadError() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cookies.json")
            try Data("{\"version\": 2, \"cookies\": []}".utf8).write(to: file)
            let jar = CookieJar(fileURL: file, clock: clock.reading)
            #expect(jar.loadError?.kind == .unsupportedVersion)
            #expect(jar.allCookies.isEmpty)
        }
    }

    @Test func recordsThatCouldInjectAHeaderAreSkipped() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cookies.json")
            func record(_ name: String, _ value: String) -> String {
                """
                {"name": "\(name)", "value": "\(value)", "domain": "example.com", "path": "/", "expires": 1900000000,
                 "secure": false, "httpOnly": false, "hostOnly": true, "created": 1767225600, "lastAccess": 1767225600}
                """
            }
            let records = [record("good", "1"), record("bad", "1\\r\\nX-Evil: 1"), record("", "1"), record("a;b", "1")]
            try Data("{\"version\": 1, \"cookies\": [\(records.joined(separator: ","))]}".utf8).write(to: file)
            let jar = CookieJar(fileURL: file, clock: clock.reading)
            #expect(jar.loadError == nil)
            #expect(try jar.header("https://example.com/") == "good=1")
        }
    }

    @Test func missingFileIsAnEmptyJarWithoutError() throws {
        try withTemporaryDirectory { directory in
            let jar = CookieJar(fileURL: directory.appendingPathComponent("absent.json"), clock: clock.reading)
            #expect(jar.loadError == nil)
            #expect(jar.allCookies.isEmpty)
            try jar.flush()
            #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("absent.json").path))
        }
    }

    @Test func directoryInPlaceOfTheFileIsUnreadable() throws {
        try withTemporaryDirectory { directory in
            let jar = CookieJar(fileURL: directory, clock: clock.reading)
            #expect(jar.loadError?.kind == .unreadable)
        }
    }

    @Test func missingDirectoryIsASaveError() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("gone/cookies.json")
            let jar = CookieJar(fileURL: file, clock: clock.reading)
            try jar.receive("a=1; Max-Age=60", from: "https://example.com/")
            #expect(throws: CookieJarError.self) { try jar.flush() }
            #expect(jar.lastSaveError?.kind == .writeFailed)
            // Once the directory exists, the next flush writes what is pending.
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try jar.flush()
            #expect(jar.lastSaveError == nil)
            #expect(CookieJar(fileURL: file, clock: clock.reading).allCookies.map(\.name) == ["a"])
        }
    }

    @Test func changesAreSavedInTheBackground() throws {
        try withTemporaryDirectory { directory in
            let file = directory.appendingPathComponent("cookies.json")
            let jar = CookieJar(fileURL: file, clock: clock.reading)
            for index in 0..<20 { try jar.receive("c\(index)=1; Max-Age=60", from: "https://example.com/") }
            // The saves are queued on the jar's serial queue: once it runs an empty block, they are done.
            jar.saveQueue.sync {}
            let saved = CookieJar(fileURL: file, clock: clock.reading).allCookies.count
            #expect(saved == 20)
        }
    }

    @Test func inMemoryJarFlushIsANoOp() throws {
        let jar = CookieJar(clock: clock.reading)
        try jar.receive("a=1; Max-Age=60", from: "https://example.com/")
        try jar.flush()
        #expect(jar.lastSaveError == nil)
        #expect(jar.loadError == nil)
    }
}
