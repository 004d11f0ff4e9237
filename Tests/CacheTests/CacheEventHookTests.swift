@testable import Cache
import Foundation
import HTTPCore
import Testing

/// Records the cache events that mention one directory, so other suites' events are ignored.
private final class DirectoryEventHook: HTTPHook {
    let directory: String
    let events = Recorder<CacheEvent>()

    init(directory: String) { self.directory = directory }

    func cacheDidReport(_ event: CacheEvent) {
        if event.description.contains(directory) { events.append(event) }
    }
}

@Suite("Cache events reach the hooks")
struct CacheEventHookTests {
    @Test("a store's default reporter gives the global hooks the very event it reports")
    func defaultReporterTellsHooks() async throws {
        try await withTemporaryDirectory { directory in
            let path = directory.standardizedFileURL.path
            let hook = DirectoryEventHook(directory: path)
            Hooks.shared.add(hook)
            defer { Hooks.shared.remove(hook) }
            let first = DiskCache(directory: directory)
            let second = DiskCache(directory: directory)
            #expect(first.currentAccess() == .writable)
            #expect(second.currentAccess() == .readOnly)
            #expect(await hook.events.wait(for: 1) == [.openedReadOnly(directory: path)])
            first.closeNow()
            second.closeNow()
        }
    }
}
