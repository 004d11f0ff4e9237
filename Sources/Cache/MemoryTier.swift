import Foundation

/// The store's hot entries, held in memory within a byte budget, so that a hit costs two
/// `lstat` calls instead of two file reads, a metadata parse and a checksum of both.
///
/// A held entry is the one that was verified when it was read from disk (or just written), with
/// the ``FileIdentity`` its metadata and body files had then. It is served only while both files
/// still have that identity, so another process's newer write or removal, and damage in place,
/// are seen exactly as without the tier. Eviction is the CLOCK approximation of
/// least-recently-used: entries wait in insertion order, and one used since it last came to the
/// front goes round once more.
///
/// A value type inside ``DiskCache/State``, so it is guarded by the store's one lock.
struct MemoryTier {
    /// One entry held in memory.
    struct Held {
        var entry: CacheEntry
        let bodyFileName: String
        var metadataFile: FileIdentity
        let bodyFile: FileIdentity
        /// When the metadata file's modification time (the least-recently-used clock on disk)
        /// was last set.
        var touchedAt: Date
        let cost: Int
        let sequence: UInt64
        var referenced: Bool
    }

    /// The most bytes held (bodies, headers and a fixed overhead per entry).
    let budget: Int
    /// The largest entry held: by default an eighth of the budget, so one big body cannot push
    /// out every other entry.
    let maximumCost: Int

    private(set) var entries: [String: Held] = [:]
    private(set) var bytes = 0
    private var order: [(hash: String, sequence: UInt64)] = []
    private var orderStart = 0
    private var nextSequence: UInt64 = 0

    init(budget: Int, maximumCost: Int? = nil) {
        self.budget = max(0, budget)
        self.maximumCost = min(self.budget, maximumCost ?? self.budget / 8)
    }

    /// What holding an entry costs against the budget: its bytes plus what the process spends
    /// around them. The fixed part (the held record and its slot, the key's texts and file
    /// names, the URL, the allocations' own headers) is what the benchmark's resident memory
    /// grows by per held entry, less its body and header text: about 2 KiB. A smaller guess
    /// let a 128 MiB budget take 280 MB.
    static func cost(of entry: CacheEntry) -> Int {
        let headerBytes = entry.headers.fields.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 48 }
        return entry.body.count + headerBytes + entry.key.rawValue.utf8.count + 2048
    }

    /// The held entry for `hash`, marked as used; `nil` when none is held.
    mutating func use(_ hash: String) -> Held? {
        guard var held = entries[hash] else { return nil }
        if !held.referenced {
            held.referenced = true
            entries[hash] = held
        }
        return held
    }

    /// Records that the metadata file was touched and now has `identity`.
    mutating func touched(_ hash: String, at date: Date, identity: FileIdentity) {
        entries[hash]?.touchedAt = date
        entries[hash]?.metadataFile = identity
    }

    /// Holds `entry` (replacing what was held for `hash`) if it fits, evicting as needed.
    mutating func hold(_ hash: String, entry: CacheEntry, bodyFileName: String, metadataFile: FileIdentity,
                       bodyFile: FileIdentity, touchedAt: Date) {
        remove(hash)
        let cost = MemoryTier.cost(of: entry)
        guard cost <= maximumCost else { return }
        nextSequence += 1
        entries[hash] = Held(entry: entry, bodyFileName: bodyFileName, metadataFile: metadataFile, bodyFile: bodyFile, touchedAt: touchedAt,
                             cost: cost, sequence: nextSequence, referenced: false)
        order.append((hash, nextSequence))
        bytes += cost
        while bytes > budget, evictOne() {}
        dropStalePlacesIfNeeded()
    }

    /// Drops what is held for `hash`, if anything.
    mutating func remove(_ hash: String) {
        guard let held = entries.removeValue(forKey: hash) else { return }
        bytes -= held.cost
        // Its place in `order` is skipped when it comes to the front (the sequence no longer matches).
        if entries.isEmpty {
            order.removeAll(keepingCapacity: true)
            orderStart = 0
        }
    }

    /// How many places the eviction order keeps, stale ones included (for tests of its bound).
    var placesInOrder: Int { order.count - orderStart }

    /// Drops everything held.
    mutating func removeAll() {
        entries.removeAll()
        order.removeAll()
        orderStart = 0
        bytes = 0
    }

    /// Evicts one entry (giving those used since their last turn another round); `false` when
    /// nothing is left to evict.
    private mutating func evictOne() -> Bool {
        while orderStart < order.count {
            let (hash, sequence) = order[orderStart]
            orderStart += 1
            defer { compactIfNeeded() }
            guard var held = entries[hash], held.sequence == sequence else { continue }
            if held.referenced {
                held.referenced = false
                entries[hash] = held
                order.append((hash, sequence))
                continue
            }
            entries.removeValue(forKey: hash)
            bytes -= held.cost
            return true
        }
        return false
    }

    /// Keeps `order` from growing without bound: the consumed front is dropped once it is
    /// more than half of the array.
    private mutating func compactIfNeeded() {
        guard orderStart > 64, orderStart * 2 > order.count else { return }
        order.removeFirst(orderStart)
        orderStart = 0
    }

    /// A replaced or removed entry leaves its old place in `order`; when those outnumber the
    /// live entries, they are dropped in one pass (amortised constant time per `hold`).
    private mutating func dropStalePlacesIfNeeded() {
        guard order.count - orderStart > 2 * entries.count + 64 else { return }
        order = order[orderStart...].filter { entries[$0.hash]?.sequence == $0.sequence }
        orderStart = 0
    }
}
