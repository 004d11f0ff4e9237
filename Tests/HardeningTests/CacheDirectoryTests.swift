import AFStyle
import Chain
import Dispatch
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 8.2, the cache directory: a directory that cannot be used never fails a request — the
/// problem goes to the cache's reporter — and a usable one is private (0700, files 0600).
@Suite("Cache directory", .timeLimit(.minutes(2)))
struct CacheDirectoryTests {
    /// A "directory" below a regular file cannot be created, even by root (ENOTDIR).
    /// Defence: DiskCache turns every disk error into a miss or a dropped write plus a
    /// `diskError` event (a thrown error or a crash would fail the request).
    @Test func anUnusableDirectoryNeverFailsARequest() async throws {
        let parent = try temporaryDirectory("cache-unusable")
        defer { try? FileManager.default.removeItem(at: parent) }
        let file = parent.appendingPathComponent("a-file")
        try Data("not a directory".utf8).write(to: file)
        let store = try TemporaryCache(directory: file.appendingPathComponent("cache", isDirectory: true))
        let queue = DispatchQueue(label: "hardening.cache.unusable")
        let configuration = chainConfiguration(cache: store.cache, queue: queue)
        let url = try TestServer.url("/get?unique=\(unique())")

        for policy in [CachePolicy.networkOnly, .fileFirst, .networkFirst, .http] {
            let (_, log) = startChain(Request.url(url).configuration(configuration).cache(policy))
            let first = try #require(await log.wait(for: 1).first)
            await settle(cache: store.cache, queue: queue)
            #expect(first.bytes ?? 0 > 0, "\(policy): \(first)")
            #expect(log.count == 1, "\(policy): \(log.count) deliveries")
        }
        let (_, cacheOnly) = startChain(Request.url(url).configuration(configuration).cache(.cacheOnly))
        #expect(try #require(await cacheOnly.wait(for: 1).first).kind == .cacheMiss)

        let callbacks = AFCallbacks()
        let manager = makeManager(queue: queue)
        manager.responseCache = store.cache
        manager.cachePolicy = .fileFirst
        manager.GET(url, success: callbacks.success, failure: callbacks.failure)
        #expect(try #require(await callbacks.log.wait(for: 1).first).bytes ?? 0 > 0)

        let events = await store.events.wait(for: 1)
        #expect(events.contains { if case .diskError = $0 { true } else { false } }, "no diskError reported: \(events)")
        #expect(await store.entryCount == 0)
    }

    /// A missing directory is created private: 0700, and every file in it 0600, whatever the
    /// umask. Defence: DiskCache's explicit modes (`mkdir(…, 0o700)` + `chmod`, files created
    /// 0600) — with the default umask 022 a plain create would give 0755 and 0644.
    @Test func aMissingDirectoryIsCreatedPrivate() async throws {
        let parent = try temporaryDirectory("cache-missing")
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("deeper/still/cache", isDirectory: true)
        let store = try TemporaryCache(directory: directory)
        let queue = DispatchQueue(label: "hardening.cache.missing")
        let configuration = chainConfiguration(cache: store.cache, queue: queue)
        let url = try TestServer.url("/get?unique=\(unique())")

        let (_, log) = startChain(Request.url(url).configuration(configuration).cache(.networkOnly))
        #expect(try #require(await log.wait(for: 1).first).bytes ?? 0 > 0)
        await settle(cache: store.cache, queue: queue)
        #expect(await store.entryCount == 1)

        #expect(try mode(of: directory) == 0o700)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.isEmpty)
        for name in files {
            #expect(try mode(of: directory.appendingPathComponent(name)) == 0o600, "\(name)")
        }
        #expect(!files.contains { $0.hasPrefix(".tmp") }, "temporary files left: \(files)")

        let (_, stored) = startChain(Request.url(url).configuration(configuration).cache(.cacheOnly))
        #expect(try #require(await stored.wait(for: 1).first).bytes ?? 0 > 0)
    }

    /// A directory removed while the cache uses it: the next store recreates it.
    /// Defence: `DiskCache.writeFailed` forgetting the open directory on ENOENT.
    @Test func aDirectoryRemovedWhileInUseComesBack() async throws {
        let store = try TemporaryCache()
        defer { store.remove() }
        let queue = DispatchQueue(label: "hardening.cache.removed")
        let configuration = chainConfiguration(cache: store.cache, queue: queue)

        let (_, first) = startChain(Request.url(try TestServer.url("/get?unique=\(unique())")).configuration(configuration)
            .cache(.networkOnly))
        #expect(try #require(await first.wait(for: 1).first).bytes ?? 0 > 0)
        await settle(cache: store.cache, queue: queue)
        try FileManager.default.removeItem(at: store.directory)

        for attempt in 0..<2 {
            let (_, log) = startChain(Request.url(try TestServer.url("/get?unique=\(unique())")).configuration(configuration)
                .cache(.networkOnly))
            #expect(try #require(await log.wait(for: 1).first).bytes ?? 0 > 0, "attempt \(attempt)")
            await settle(cache: store.cache, queue: queue)
        }
        #expect(FileManager.default.fileExists(atPath: store.directory.path))
        #expect(await store.entryCount >= 1)
    }

    /// A directory owned by another user is refused (someone could read or plant entries):
    /// requests still succeed, nothing is written there. Needs root to make such a directory.
    /// Defence: DiskCache's owner check when opening the directory.
    @Test(.enabled(if: geteuid() == 0, "needs root to give a directory to another user"))
    func aDirectoryOwnedByAnotherUserIsRefused() async throws {
        let parent = try temporaryDirectory("cache-foreign")
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent("cache", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o777])
        #expect(chown(directory.path, 65534, 65534) == 0)
        let store = try TemporaryCache(directory: directory)
        let queue = DispatchQueue(label: "hardening.cache.foreign")

        let (_, log) = startChain(Request.url(try TestServer.url("/get?unique=\(unique())"))
            .configuration(chainConfiguration(cache: store.cache, queue: queue)).cache(.networkOnly))
        #expect(try #require(await log.wait(for: 1).first).bytes ?? 0 > 0)
        await settle(cache: store.cache, queue: queue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        let events = await store.events.wait(for: 1)
        #expect(!events.isEmpty, "the refusal was not reported")
    }

    private func mode(of url: URL) throws -> Int {
        var status = stat()
        guard stat(url.path, &status) == 0 else { throw TestFailure("stat \(url.path) failed") }
        return Int(status.st_mode) & 0o777
    }
}
