import Dispatch
import Foundation

extension CookieJar {
    /// Why the last write of the file failed; `nil` when it succeeded, when nothing was
    /// written yet, or when the jar has no file. The next change or ``flush()`` tries again.
    public var lastSaveError: CookieJarError? {
        state.withLock { $0.lastSaveError }
    }

    /// Writes the changes not yet in the file now, waiting for a write already under way;
    /// does nothing for a jar in memory or when the file is up to date. Blocks the calling
    /// thread for the write (and its fsync), so call it off latency-sensitive threads, and
    /// before the process exits, since a queued write does not outlive it.
    public func flush() throws(CookieJarError) {
        guard fileURL != nil else { return }
        let result: Result<Void, CookieJarError> = saveQueue.sync {
            Result { () throws(CookieJarError) in try savePending() }
        }
        try result.get()
    }

    /// Writes the latest snapshot if the file is behind it. Runs on ``saveQueue`` only, so
    /// two writes never race and the file always ends with the newest state.
    func savePending() throws(CookieJarError) {
        guard let fileURL else { return }
        let now = clock()
        let pending = state.withLock { state -> (entries: [StoredCookie], generation: UInt64)? in
            state.saveScheduled = false
            guard state.generation != state.savedGeneration else { return nil }
            return (state.store.snapshot(now: now, includingSessionCookies: persistsSessionCookies), state.generation)
        }
        guard let pending else { return }
        do {
            try CookieFile.write(try CookieFile.encode(pending.entries), to: fileURL)
        } catch {
            state.withLock { $0.lastSaveError = error }
            throw error
        }
        state.withLock { state in
            state.savedGeneration = max(state.savedGeneration, pending.generation)
            state.lastSaveError = nil
        }
    }

    /// The store the file at `fileURL` holds (nothing when there is no file) and why it could
    /// not be read, if it could not. Never throws: a broken file means an empty jar.
    static func load(_ fileURL: URL?, persistsSessionCookies: Bool, now: Date) -> (CookieStore, CookieJarError?) {
        var store = CookieStore()
        guard let fileURL else { return (store, nil) }
        do {
            let records = try CookieFile.load(from: fileURL) ?? []
            for record in records.sorted(by: { $0.cookie.creationDate < $1.cookie.creationDate })
            where persistsSessionCookies || !record.cookie.isSessionCookie {
                store.store(record.cookie, now: now, lastAccess: record.lastAccess)
            }
            return (store, nil)
        } catch {
            return (CookieStore(), error)
        }
    }
}
