import Foundation
import HTTPCore

/// Opening, locking, cleanup at open, eviction and the management operations.
extension DiskCache {
    /// How long opening waits for a lock held elsewhere before settling for read-only.
    static let lockPatience: TimeInterval = 0.2

    /// Opens the directory on first use (and again after a failure or ``close(completion:)``);
    /// a read-only store tries the lock again before each write.
    func prepare(_ state: inout State, write: Bool, events: inout [CacheEvent]) {
        switch state.access {
        case .writable:
            return
        case .readOnly:
            // One quick try: a store that is read-only because another one is open should
            // not wait on every write.
            if write { takeLock(&state, patience: 0, events: &events) }
        case .notOpened, .unavailable:
            open(&state, events: &events)
        }
    }

    private func open(_ state: inout State, events: inout [CacheEvent]) {
        guard let directory else {
            fail(&state, "no cache directory: neither XDG_CACHE_HOME nor a home directory is set", path: "", events: &events)
            return
        }
        do {
            try FileSystem.makePrivateDirectory(directory.path)
        } catch {
            fail(&state, error.description, path: directory.path, events: &events)
            return
        }
        state.lastOpenFailure = nil
        state.access = .readOnly
        takeLock(&state, patience: DiskCache.lockPatience, events: &events)
        if state.access == .readOnly { scan(&state, events: &events) }
    }

    /// Tries the lock; on success the store becomes writable and cleans up after whoever
    /// held it before.
    private func takeLock(_ state: inout State, patience: TimeInterval, events: inout [CacheEvent]) {
        guard let lockPath = path(DiskCache.lockFileName) else { return }
        switch DirectoryLock.acquire(path: lockPath, patience: patience) {
        case .success(let lock):
            state.lock = lock
            state.access = .writable
            state.reportedReadOnly = false
            scan(&state, events: &events)
            evictIfNeeded(state: &state, events: &events)
        case .failure(.heldElsewhere):
            if !state.reportedReadOnly {
                state.reportedReadOnly = true
                events.append(.openedReadOnly(directory: directory?.path ?? ""))
            }
        case .failure(.io(let error)):
            fail(&state, error.description, path: lockPath, events: &events)
        }
    }

    private func fail(_ state: inout State, _ message: String, path: String, events: inout [CacheEvent]) {
        state.access = .unavailable
        state.lock = nil
        state.index = [:]
        state.totalSize = 0
        state.memory.removeAll()
        // Every operation retries the open; only a new kind of failure is worth reporting.
        if state.lastOpenFailure != message {
            state.lastOpenFailure = message
            events.append(.diskError(operation: "open", path: path, message: message))
        }
    }

    /// Rebuilds the index from the directory. When writable, also removes temporary files,
    /// bodies no metadata references, and entries whose metadata is damaged or whose body
    /// is missing or of the wrong size (bodies are checksummed on read, not here, so that
    /// opening a large store stays cheap).
    func scan(_ state: inout State, events: inout [CacheEvent]) {
        guard let directoryPath = directory?.path else { return }
        let names: [String]
        do {
            names = try FileSystem.contents(of: directoryPath)
        } catch {
            events.append(.diskError(operation: "list", path: directoryPath, message: error.description))
            return
        }
        let writable = state.access == .writable
        state.index = [:]
        state.totalSize = 0
        state.memory.removeAll()
        var leftovers = 0
        var bodies: [String] = []
        for name in names {
            if name.hasPrefix(DiskCache.temporaryPrefix) {
                if writable, let temporary = path(name), FileSystem.remove(temporary) { leftovers += 1 }
            } else if DiskCache.isAnyBodyFileName(name) {
                bodies.append(name)
            } else if let hash = DiskCache.hash(ofMetadataFile: name) {
                switch readMetadata(hash: hash) {
                case .missing:
                    continue
                case .failed(let error):
                    events.append(.diskError(operation: "read", path: error.path, message: error.description))
                case .corrupt(let reason):
                    discard(hash, bodyFile: nil, reason: reason, state: &state, events: &events)
                case .found(let metadata, let size, _):
                    guard let bodyPath = path(metadata.bodyFile), let body = FileSystem.regularFileInfo(bodyPath),
                          body.size == metadata.bodyLength else {
                        discard(hash, bodyFile: metadata.bodyFile, reason: "body file is missing or has the wrong size",
                                state: &state, events: &events)
                        continue
                    }
                    let lastAccess = path(name).flatMap(FileSystem.regularFileInfo)?.modified
                        ?? Date(timeIntervalSince1970: metadata.storedAt)
                    let record = IndexRecord(metadataSize: size, bodyFile: metadata.bodyFile, bodySize: body.size,
                                             lastAccess: lastAccess, storedAt: Date(timeIntervalSince1970: metadata.storedAt))
                    state.index[hash] = record
                    state.totalSize += record.size
                }
            }
        }
        if writable {
            let referenced = Set(state.index.values.map(\.bodyFile))
            for name in bodies where !referenced.contains(name) {
                if let orphan = path(name), FileSystem.remove(orphan) { leftovers += 1 }
            }
        }
        if leftovers > 0 { events.append(.removedLeftovers(files: leftovers)) }
    }

    /// Removes least-recently-used entries until the total is at the low watermark.
    func evictIfNeeded(state: inout State, events: inout [CacheEvent]) {
        guard state.access == .writable, state.totalSize > maximumSize else { return }
        let target = Int64(Double(maximumSize) * lowWatermark)
        let order = state.index.sorted { a, b in
            a.value.lastAccess != b.value.lastAccess ? a.value.lastAccess < b.value.lastAccess : a.key < b.key
        }
        var count = 0
        var bytes: Int64 = 0
        for (hash, record) in order {
            guard state.totalSize > target else { break }
            removeRecord(hash, state: &state)
            count += 1
            bytes += record.size
        }
        if count > 0 { events.append(.evicted(entries: count, bytes: bytes)) }
    }

    /// Deletes an entry's files, metadata first so that no reader finds metadata without
    /// its body. Returns whether there was an entry.
    @discardableResult
    func removeRecord(_ hash: String, state: inout State) -> Bool {
        guard let metadataPath = path(hash + DiskCache.metadataSuffix) else { return false }
        var bodyFile = state.index[hash]?.bodyFile
        if bodyFile == nil, case .found(let metadata, _, _) = readMetadata(hash: hash) { bodyFile = metadata.bodyFile }
        let existed = FileManager.default.fileExists(atPath: metadataPath)
        FileSystem.remove(metadataPath)
        if let bodyFile, let bodyPath = path(bodyFile) { FileSystem.remove(bodyPath) }
        forget(hash, state: &state)
        return existed
    }

    @discardableResult
    func removeEntry(for key: CacheKey) -> Bool {
        perform(write: true) { state, _ in
            guard state.access == .writable else { return false }
            return removeRecord(key.fileName, state: &state)
        }
    }

    func removeAllEntries() -> Int {
        perform(write: true) { state, events in
            guard state.access == .writable else { return 0 }
            let hashes = Array(state.index.keys)
            for hash in hashes { removeRecord(hash, state: &state) }
            // Catch anything the index did not know (files copied in, leftovers).
            scan(&state, events: &events)
            let stragglers = Array(state.index.keys)
            for hash in stragglers { removeRecord(hash, state: &state) }
            return hashes.count + stragglers.count
        }
    }

    func removeEntries(olderThan date: Date) -> Int {
        perform(write: true) { state, _ in
            guard state.access == .writable else { return 0 }
            let old = state.index.filter { $0.value.storedAt < date }.map(\.key)
            for hash in old { removeRecord(hash, state: &state) }
            return old.count
        }
    }

    func currentTotalSize() -> Int64 {
        perform(write: false) { state, events in
            // A read-only store's index goes stale as the writing process works: look again.
            if state.access == .readOnly { scan(&state, events: &events) }
            return state.totalSize
        }
    }

    func currentEntryCount() -> Int {
        perform(write: false) { state, events in
            if state.access == .readOnly { scan(&state, events: &events) }
            return state.index.count
        }
    }

    /// Whether the store is writable, read-only or unavailable (opening it if needed).
    func currentAccess() -> State.Access {
        perform(write: false) { state, _ in state.access }
    }

    func closeNow() {
        state.withLock { state in
            state.lock = nil
            state.access = .notOpened
            state.index = [:]
            state.totalSize = 0
            state.memory.removeAll()
        }
    }
}
