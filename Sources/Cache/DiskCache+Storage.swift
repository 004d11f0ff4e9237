import Foundation
import HTTPCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The synchronous reads and writes. They run on the store's queue when called through the
/// public API; tests call them directly. Each takes the state lock for its whole duration.
extension DiskCache {
    /// The outcome of reading one metadata file.
    enum MetadataRead {
        case found(CacheMetadata, size: Int64, file: FileIdentity)
        case missing
        case corrupt(String)
        case failed(FileSystemError)
    }

    /// Runs `body` with the directory open (writable if `write` and the lock can be had),
    /// then reports the events it collected once the lock is released.
    func perform<Result: Sendable>(write: Bool, _ body: (inout State, inout [CacheEvent]) -> Result) -> Result {
        let (result, events, reporter) = state.withLock { state -> (Result, [CacheEvent], @Sendable (CacheEvent) -> Void) in
            var events: [CacheEvent] = []
            prepare(&state, write: write, events: &events)
            let result = body(&state, &events)
            return (result, events, state.reporter)
        }
        for event in events { reporter(event) }
        return result
    }

    /// Reads and verifies the entry under `key`; `nil` on any kind of miss.
    func readEntry(for key: CacheKey) -> CacheEntry? {
        perform(write: false) { state, events in
            loadEntry(key, state: &state, events: &events)
        }
    }

    /// The entry under `key` if the memory tier holds it and both its files are unchanged,
    /// without waiting for anything: safe on any thread, since it only takes the lock if it is
    /// free and calls `lstat` twice. `nil` sends the read to the store's queue: the lock is busy
    /// (a write may hold it for a while), a mutation is queued, the store is not open yet, or
    /// the entry is not held or has changed on disk. An access time that is due is written on
    /// the store's queue afterwards (``writePendingTouches()``).
    func heldEntryWithoutWaiting(for key: CacheKey) -> CacheEntry? {
        guard queuedMutations.load(ordering: .sequentiallyConsistent) == 0 else { return nil }
        let hash = key.fileName
        let (entry, queueTouchWrite) = state.withLockIfAvailable { state -> (CacheEntry?, Bool) in
            guard state.access == .writable || state.access == .readOnly, let held = state.memory.use(hash) else { return (nil, false) }
            let hadPending = !state.pendingTouches.isEmpty
            let entry = serveHeld(held, hash: hash, key: key, state: &state, touchNow: false)
            return (entry, !hadPending && !state.pendingTouches.isEmpty)
        } ?? (nil, false)
        if queueTouchWrite { queue.async { self.writePendingTouches() } }
        return entry
    }

    /// Writes the access times that hits served off the queue marked as due: each held entry's
    /// time of use, if its metadata file is still the one held (a newer write or a removal
    /// since then has its own time). Best effort, as every access time.
    func writePendingTouches() {
        state.withLock { state in
            let hashes = state.pendingTouches
            state.pendingTouches = []
            guard state.access == .writable else { return }
            for hash in hashes {
                guard let held = state.memory.entries[hash], let metadataPath = path(hash + DiskCache.metadataSuffix),
                      FileIdentity.of(metadataPath) == held.metadataFile else { continue }
                _ = touchHeld(hash, metadataPath: metadataPath, at: held.touchedAt, state: &state)
            }
        }
    }

    func loadEntry(_ key: CacheKey, state: inout State, events: inout [CacheEvent]) -> CacheEntry? {
        guard state.access == .writable || state.access == .readOnly else { return nil }
        let hash = key.fileName
        if let held = state.memory.use(hash) {
            if let entry = serveHeld(held, hash: hash, key: key, state: &state, touchNow: true) { return entry }
            state.memory.remove(hash)
        }
        // A read-only reader can race the writing process: it may read metadata whose body
        // that process replaces a moment later. One more look at the metadata settles it.
        for attempt in 0..<2 {
            let metadata: CacheMetadata
            let metadataFile: FileIdentity
            // The writer marks the entry used as it reads it (through the open descriptor).
            let now = state.access == .writable ? clock() : nil
            switch readMetadata(hash: hash, touchingAt: now) {
            case .missing:
                if state.access == .writable { forget(hash, state: &state) }
                return nil
            case .failed(let error):
                events.append(.diskError(operation: "read", path: error.path, message: error.description))
                return nil
            case .corrupt(let reason):
                discard(hash, bodyFile: nil, reason: reason, state: &state, events: &events)
                return nil
            case .found(let found, _, let file):
                metadata = found
                metadataFile = file
            }
            // Another key with the same hash: not this entry, and nothing is wrong with it.
            guard metadata.key == key.rawValue else { return nil }
            guard let bodyPath = path(metadata.bodyFile) else { return nil }
            let body: Data
            let bodyFile: FileIdentity
            do {
                (body, bodyFile) = try FileSystem.readFile(bodyPath, maximumSize: metadata.bodyLength)
            } catch {
                switch error {
                case .missing:
                    if attempt == 0, state.access == .readOnly { continue }
                    discard(hash, bodyFile: metadata.bodyFile, reason: "body file is missing", state: &state, events: &events)
                case .unacceptable(let reason):
                    discard(hash, bodyFile: metadata.bodyFile, reason: "body file " + reason, state: &state, events: &events)
                case .io(let error):
                    events.append(.diskError(operation: "read", path: error.path, message: error.description))
                }
                return nil
            }
            guard Int64(body.count) == metadata.bodyLength else {
                discard(hash, bodyFile: metadata.bodyFile,
                        reason: "body has \(body.count) bytes, metadata says \(metadata.bodyLength)", state: &state, events: &events)
                return nil
            }
            guard metadata.describesBody(body) else {
                discard(hash, bodyFile: metadata.bodyFile, reason: "body checksum mismatch", state: &state, events: &events)
                return nil
            }
            guard let entry = metadata.entry(body: body, key: key) else {
                discard(hash, bodyFile: metadata.bodyFile, reason: "metadata URL is invalid", state: &state, events: &events)
                return nil
            }
            if let now { state.index[hash]?.lastAccess = now }
            state.memory.hold(hash, entry: entry, bodyFileName: metadata.bodyFile, metadataFile: metadataFile,
                              bodyFile: bodyFile, touchedAt: now ?? clock())
            return entry
        }
        return nil
    }

    /// The entry the memory tier holds for `hash`, if both its files are still the ones it was
    /// read from; `nil` sends the read to the disk. An access time on disk that is due is
    /// written here with `touchNow` (on the store's queue), else marked for
    /// ``writePendingTouches()``.
    private func serveHeld(_ held: MemoryTier.Held, hash: String, key: CacheKey, state: inout State,
                           touchNow: Bool) -> CacheEntry? {
        // Another key with the same hash: the disk read reports it as a miss.
        guard held.entry.key.rawValue == key.rawValue,
              let metadataPath = path(hash + DiskCache.metadataSuffix), let bodyPath = path(held.bodyFileName),
              FileIdentity.of(metadataPath) == held.metadataFile, FileIdentity.of(bodyPath) == held.bodyFile else { return nil }
        guard state.access == .writable else { return held.entry }
        let now = clock()
        let sinceTouch = now.timeIntervalSince(held.touchedAt)
        let touchIsDue = sinceTouch >= DiskCache.accessTimeResolution || sinceTouch < 0
        state.index[hash]?.lastAccess = now
        guard touchIsDue else { return held.entry }
        guard touchNow else {
            // The time is recorded now (so the entry is marked once) with the identity the file
            // still has; the write that follows updates both.
            state.memory.touched(hash, at: now, identity: held.metadataFile)
            state.pendingTouches.append(hash)
            return held.entry
        }
        return touchHeld(hash, metadataPath: metadataPath, at: now, state: &state) ? held.entry : nil
    }

    /// Sets a held entry's access time on disk and records the identity its metadata file has
    /// after; `false` when the file cannot be looked at any more.
    private func touchHeld(_ hash: String, metadataPath: String, at date: Date, state: inout State) -> Bool {
        FileSystem.setModificationDate(metadataPath, date)
        guard let touched = FileIdentity.of(metadataPath) else { return false }
        state.memory.touched(hash, at: date, identity: touched)
        return true
    }

    /// Reads and validates the metadata file of `hash`; with `touchingAt`, also marks it used at
    /// that time (see `FileSystem.readFile`), and the identity found is the one after.
    func readMetadata(hash: String, touchingAt touch: Date? = nil) -> MetadataRead {
        guard let metadataPath = path(hash + DiskCache.metadataSuffix) else { return .missing }
        let data: Data
        let file: FileIdentity
        do {
            (data, file) = try FileSystem.readFile(metadataPath, maximumSize: CacheMetadata.maximumFileSize, touchingAt: touch)
        } catch {
            switch error {
            case .missing: return .missing
            case .unacceptable(let reason): return .corrupt("metadata file " + reason)
            case .io(let error): return .failed(error)
            }
        }
        switch CacheMetadata.decode(data) {
        case .failure(let error):
            return .corrupt(error.reason)
        case .success(let metadata):
            if let problem = metadata.validationProblem(fileName: hash, maximumBodyLength: maximumSize) {
                return .corrupt(problem)
            }
            return .found(metadata, size: Int64(data.count), file: file)
        }
    }

    /// Writes an entry: body first under a fresh name, then the metadata (the commit).
    @discardableResult
    func writeEntry(_ entry: CacheEntry) -> Bool {
        perform(write: true) { state, events in
            guard state.access == .writable else { return false }
            let hash = entry.key.fileName
            guard Int64(entry.body.count) <= maximumEntrySize else {
                // The stored copy (if any) is older than the response just refused: drop it.
                removeRecord(hash, state: &state)
                return false
            }
            let bodyFile = hash + "-" + DiskCache.randomHex(16) + DiskCache.bodySuffix
            guard let bodyPath = path(bodyFile), let temporary = path(DiskCache.temporaryPrefix + DiskCache.randomHex(32)) else {
                return false
            }
            do throws(FileSystemError) {
                try FileSystem.writeNewFile(temporary, data: entry.body, modificationDate: clock())
                try FileSystem.move(temporary, to: bodyPath)
            } catch {
                FileSystem.remove(temporary)
                writeFailed(error, operation: "write body", state: &state, events: &events)
                return false
            }
            let committed = commitMetadata(entry, bodyFile: bodyFile, state: &state, events: &events)
            if !committed { FileSystem.remove(bodyPath) }
            return committed
        }
    }

    /// Rewrites only the metadata of a stored entry (after a `304`) when its body is the
    /// one on disk; otherwise writes the whole entry. Returns whether it was written.
    @discardableResult
    func refreshEntry(_ entry: CacheEntry) -> Bool {
        let reused = perform(write: true) { state, events -> Bool? in
            guard state.access == .writable else { return false }
            // The body on disk is taken for the entry's when its length and checksum match: both
            // are responses of the same server for the same key, so a CRC-32 that matches by chance
            // serves nothing that server did not send for it.
            guard case .found(let metadata, _, _) = readMetadata(hash: entry.key.fileName),
                  metadata.key == entry.key.rawValue, metadata.describesBody(entry.body) else { return nil }
            return commitMetadata(entry, bodyFile: metadata.bodyFile, state: &state, events: &events)
        }
        return reused ?? writeEntry(entry)
    }

    /// Writes the metadata file through a temporary file and renames it into place, then
    /// drops the body the previous metadata referenced (if another) and evicts if needed.
    func commitMetadata(_ entry: CacheEntry, bodyFile: String, state: inout State, events: inout [CacheEvent]) -> Bool {
        let hash = entry.key.fileName
        guard let metadataPath = path(hash + DiskCache.metadataSuffix),
              let temporary = path(DiskCache.temporaryPrefix + DiskCache.randomHex(32)) else { return false }
        let data: Data
        do {
            data = try CacheMetadata(entry: entry, bodyFile: bodyFile).encoded()
        } catch {
            events.append(.diskError(operation: "encode metadata", path: metadataPath, message: "\(error)"))
            return false
        }
        let now = clock()
        do throws(FileSystemError) {
            try FileSystem.writeNewFile(temporary, data: data, modificationDate: now)
            try FileSystem.move(temporary, to: metadataPath)
        } catch {
            FileSystem.remove(temporary)
            writeFailed(error, operation: "write metadata", state: &state, events: &events)
            return false
        }
        let previous = state.index[hash]
        let record = IndexRecord(metadataSize: Int64(data.count), bodyFile: bodyFile, bodySize: Int64(entry.body.count),
                                 lastAccess: now, storedAt: entry.storedAt)
        state.index[hash] = record
        state.totalSize += record.size - (previous?.size ?? 0)
        if let previous, previous.bodyFile != bodyFile, let oldBody = path(previous.bodyFile) {
            FileSystem.remove(oldBody)
        }
        // A write is the sign of an entry in use: hold it, with the identities of the files just
        // renamed into place (this store holds the directory's lock, so nobody else writes).
        if let metadataFile = FileIdentity.of(metadataPath), let bodyFile = path(bodyFile).flatMap(FileIdentity.of) {
            state.memory.hold(hash, entry: entry, bodyFileName: record.bodyFile, metadataFile: metadataFile,
                              bodyFile: bodyFile, touchedAt: now)
        } else {
            state.memory.remove(hash)
        }
        evictIfNeeded(state: &state, events: &events)
        return true
    }

    /// Reports a failed write. When the directory itself has gone (someone removed it), the
    /// store forgets it was open, so the next operation creates it and takes the lock again.
    func writeFailed(_ error: FileSystemError, operation: String, state: inout State, events: inout [CacheEvent]) {
        events.append(.diskError(operation: operation, path: error.path, message: error.description))
        if error.code == ENOENT {
            state.access = .notOpened
            state.lock = nil
            state.index = [:]
            state.totalSize = 0
            state.memory.removeAll()
        }
    }

    /// Deletes a damaged entry (when writable) and reports it.
    func discard(_ hash: String, bodyFile: String?, reason: String, state: inout State, events: inout [CacheEvent]) {
        events.append(.corruptedEntry(file: hash + DiskCache.metadataSuffix, reason: reason))
        guard state.access == .writable else { return }
        if let metadataPath = path(hash + DiskCache.metadataSuffix) { FileSystem.remove(metadataPath) }
        if let bodyFile, DiskCache.isBodyFileName(bodyFile, of: hash), let bodyPath = path(bodyFile) {
            FileSystem.remove(bodyPath)
        }
        if let record = state.index[hash], record.bodyFile != bodyFile, let bodyPath = path(record.bodyFile) {
            FileSystem.remove(bodyPath)
        }
        forget(hash, state: &state)
    }

    func forget(_ hash: String, state: inout State) {
        if let record = state.index.removeValue(forKey: hash) { state.totalSize -= record.size }
        state.memory.remove(hash)
    }
}
