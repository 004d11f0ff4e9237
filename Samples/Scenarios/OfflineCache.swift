import Foundation

/// The RxSwift + Realm article: show the last answer at once, then refresh it from the
/// network — and keep showing it when the network is gone. Chain stores the raw response on
/// disk (no database, no model mapping) and replays it under a cache policy.
///
/// It starts its own sample server because it stops it half-way, to play "offline".
public enum OfflineCacheSample {
    public static func run(output: SampleOutput) async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        output.say("(this sample uses a server of its own, \(server.baseURL.absoluteString), as it stops it half-way)")

        // A cache of our own in a temporary directory, so the sample leaves ~/.cache alone.
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("chain-offline-cache-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = ResponseCache(directory: directory)
        let api = ChainConfiguration(baseURL: server.baseURL, cache: cache)

        output.say("Online, empty cache — cache first, then network (.fileFirst):")
        let online = await deliveries(of: api.url("user/101").cache(.fileFirst), output: output)
        try expect(online.count == 1 && online[0].source == .network && online[0].value?.name == "wiki",
                   "one delivery, from the network (nothing stored yet)")
        let everyone = try await api.url("user/query").cache(.networkOnly).value([User].self)
        output.say("   stored the user list too (.networkOnly stores what it fetches): \(everyone.count) users")

        server.stop()
        output.say("The server is stopped. The same call again (.fileFirst):")
        let offline = await deliveries(of: api.url("user/101").cache(.fileFirst), output: output)
        try expect(offline.count == 2, "two deliveries: the stored copy, then the network's failure")
        try expect(offline[0].source == .cache && offline[0].value?.name == "wiki", "the stored copy first")
        try expect(offline[1].error?.kind == .cannotConnect, "the network's failure second")

        output.say("Network first, stored copy when the network fails (.networkFirst):")
        let fallback = await api.url("user/101").cache(.networkFirst).delivery(User.self)
        describe(fallback, output: output)
        try expect(fallback.isFromCache && fallback.value?.name == "wiki", "the stored copy after the failure")

        output.say("Only the cache, never the network (.cacheOnly):")
        let list = try await api.url("user/query").cache(.cacheOnly).value([User].self)
        output.say("   user list from the cache: \(list.map(\.name).joined(separator: ", "))")
        try expect(list.count == 3, "three stored users")
        let miss = try await expectFailure("a user never fetched") {
            try await api.url("user/103").cache(.cacheOnly).value(User.self)
        }
        output.say("   user 103 was never fetched: \(miss.kind)")
        try expect(miss.kind == .cacheMiss, "a cache miss for user 103")

        try await listAndClear(cache.store, directory: directory, output: output)
    }

    /// Collects every delivery of one call — two for a `.fileFirst` hit — printing each.
    static func deliveries(of request: Request, output: SampleOutput) async -> [Delivery<User>] {
        var all: [Delivery<User>] = []
        for await delivery in request.deliveries(User.self) {
            describe(delivery, output: output)
            all.append(delivery)
        }
        return all
    }

    static func describe(_ delivery: Delivery<User>, output: SampleOutput) {
        switch delivery.result {
        case .success(let user):
            let origin = delivery.isFromCache ? "from the cache (the stored copy)" : "from the network"
            output.say("   delivery \(origin): \(user.name)")
        case .failure(let error):
            output.say("   delivery from the network failed: \(error.kind) — the screen keeps the stored copy")
        }
    }

    /// The management side: what is on disk, and how to empty it (a "clear cache" button).
    static func listAndClear(_ store: DiskCache, directory: URL, output: SampleOutput) async throws {
        let count = await store.entryCount()
        let size = await store.totalSize()
        output.say("Cache directory \(directory.path): \(count) entries, \(size) bytes")
        // Each entry is a metadata file (key, status, headers, checksum) and a body file.
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
        for file in files {
            let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(file).path)
            output.say("   \(file)  \((attributes[.size] as? NSNumber)?.intValue ?? 0) bytes")
        }
        try expect(count == 2, "two entries (user 101 and the user list)")

        let removed = await store.removeAll()
        let left = await store.entryCount()
        output.say("Cleared the cache: removed \(removed) entries, \(left) left")
        try expect(removed == 2 && left == 0, "an empty cache after removeAll")
        // Let go of the directory's lock before the directory is deleted.
        await store.close()
    }
}
