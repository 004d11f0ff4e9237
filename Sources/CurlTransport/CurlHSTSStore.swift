import CCurl
import Foundation
import HTTPCore

/// A client's HTTP Strict Transport Security store (RFC 6797), kept in a file between runs.
///
/// libcurl does the HSTS work itself — reading `Strict-Transport-Security` from `https`
/// responses and sending `http://` requests to a known host over `https` — in an in-memory
/// cache held by the engine's share handle. Its own file handling is not used: with
/// `CURLOPT_HSTS`, libcurl 7.88 re-reads the file on every transfer of the handle and writes
/// it in place (truncate, then write) only when a handle closes, so a crash could leave half
/// a file and a long-running client would rarely save. Instead this store feeds the file's
/// entries to the cache through the read callback (once), and writes the file itself,
/// atomically, from the write callback's dump of the cache.
///
/// Loop thread only after `init`: the callbacks and ``saveIfChanged(share:)`` run there.
final class CurlHSTSStore {
    /// One host's entry, as libcurl and its file format spell it.
    struct Entry: Equatable {
        var host: String
        var includesSubdomains: Bool
        /// `YYYYMMDD HH:MM:SS` in UTC, or libcurl's `unlimited`.
        var expiry: String
    }

    let file: URL
    /// The file's entries still to be handed to libcurl (the first transfer takes them all).
    private var unfed: [Entry]
    /// What the file holds now.
    private var written: [Entry]
    /// The entries of a dump in progress (see `saveIfChanged`).
    private var collected: [Entry] = []
    /// When the file was last written for a change of expiry times only.
    private var lastExpiryWrite = DispatchTime(uptimeNanoseconds: 0)
    /// The C side's view of this store, for libcurl's callbacks; lives as long as the store.
    private let hooks: UnsafeMutablePointer<ccurl_hsts_hooks>

    /// A change of expiry times alone is written at most this often; a host added or
    /// removed is written at once.
    static let expiryWriteInterval: UInt64 = 600 * 1_000_000_000

    /// Reads `file` (a missing or unreadable file is an empty store); expired entries are dropped.
    init(file: URL, now: Date = Date()) {
        self.file = file
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let entries = CurlHSTSStore.parse(text, now: now)
        unfed = entries.reversed()
        written = entries.sorted { $0.host < $1.host }
        hooks = .allocate(capacity: 1)
        hooks.initialize(to: ccurl_hsts_hooks(feed: nil, collect: nil, userdata: nil))
        hooks.pointee.userdata = Unmanaged.passUnretained(self).toOpaque()
        hooks.pointee.feed = { userdata, name, capacity, includeSubdomains, expire in
            guard let userdata, let name, let includeSubdomains, let expire else { return 0 }
            let store = Unmanaged<CurlHSTSStore>.fromOpaque(userdata).takeUnretainedValue()
            return store.feed(name: name, capacity: capacity, includeSubdomains: includeSubdomains, expire: expire)
        }
        hooks.pointee.collect = { userdata, name, includeSubdomains, expire in
            guard let userdata, let name, let expire else { return }
            let store = Unmanaged<CurlHSTSStore>.fromOpaque(userdata).takeUnretainedValue()
            store.collected.append(Entry(host: String(cString: name), includesSubdomains: includeSubdomains != 0,
                                         expiry: String(cString: expire)))
        }
    }

    deinit {
        hooks.deinitialize(count: 1)
        hooks.deallocate()
    }

    /// Turns HSTS on for a handle whose share handle holds the cache, with the feed of the
    /// file's entries (consumed by the first transfer; later ones find nothing to load).
    func apply(to handle: UnsafeMutableRawPointer) -> CURLcode {
        ccurl_easy_set_hsts_hooks(handle, hooks, 1, 0)
    }

    private func feed(name: UnsafeMutablePointer<CChar>, capacity: Int, includeSubdomains: UnsafeMutablePointer<Int32>,
                      expire: UnsafeMutablePointer<CChar>) -> Int32 {
        while let entry = unfed.popLast() {
            let host = Array(entry.host.utf8CString)
            // libcurl writes `unlimited` but reads it back as a date it cannot parse (expired);
            // an empty time is how its read callback says "never expires".
            let date = Array((entry.expiry == "unlimited" ? "" : entry.expiry).utf8CString)
            // libcurl's buffers: the name's is `capacity` bytes, the date's 18.
            guard host.count <= capacity, date.count <= 18 else { continue }
            host.withUnsafeBufferPointer { if let base = $0.baseAddress { name.update(from: base, count: host.count) } }
            date.withUnsafeBufferPointer { if let base = $0.baseAddress { expire.update(from: base, count: date.count) } }
            includeSubdomains.pointee = entry.includesSubdomains ? 1 : 0
            return 1
        }
        return 0
    }

    /// Writes the cache to the file when it differs from what the file holds: at once when a
    /// host was added or removed, at most every ``expiryWriteInterval`` when only expiry
    /// times moved (every response of an HSTS host renews its time). `force` writes any
    /// difference (the engine's last call, when it stops).
    ///
    /// libcurl hands its cache out only when a handle closes: a handle made for the purpose
    /// (on `share`) is closed here, and its write callback collects the entries.
    func saveIfChanged(share: UnsafeMutableRawPointer, force: Bool = false) {
        guard let handle = curl_easy_init() else { return }
        collected.removeAll(keepingCapacity: true)
        if ccurl_easy_setopt_share(handle, share) == CURLE_OK {
            _ = ccurl_easy_set_hsts_hooks(handle, hooks, 0, 1)
        }
        curl_easy_cleanup(handle)
        // Sorted, as `init` sorts the file's: libcurl's order is its own.
        let entries = collected.sorted { $0.host < $1.host }
        guard entries != written else { return }
        let now = DispatchTime.now()
        let hostsChanged = entries.map { "\($0.host) \($0.includesSubdomains)" } != written.map { "\($0.host) \($0.includesSubdomains)" }
        guard force || hostsChanged || now.uptimeNanoseconds &- lastExpiryWrite.uptimeNanoseconds >= CurlHSTSStore.expiryWriteInterval else {
            return
        }
        if write(entries) {
            written = entries
            if !hostsChanged { lastExpiryWrite = now }
        }
    }

    /// Writes `entries` to a new file beside ``file`` (mode 0600) and renames it over the old
    /// one: a reader, or the next run after a crash, sees the old file or the new one.
    private func write(_ entries: [Entry]) -> Bool {
        var text = "# HTTP Strict Transport Security hosts, written by Chain (libcurl's HSTS file format).\n"
        for entry in entries {
            text += "\(entry.includesSubdomains ? "." : "")\(entry.host) \"\(entry.expiry)\"\n"
        }
        let temporary = file.deletingLastPathComponent()
            .appendingPathComponent(".\(file.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
        guard FileManager.default.createFile(atPath: temporary.path, contents: Data(text.utf8),
                                             attributes: [.posixPermissions: 0o600]) else { return false }
        guard rename(temporary.path, file.path) == 0 else {
            unlink(temporary.path)
            return false
        }
        return true
    }

    /// The entries of a file in libcurl's HSTS format (`[.]host "YYYYMMDD HH:MM:SS"`, `#`
    /// comments), without the ones expired at `now` and without lines that are not entries.
    static func parse(_ text: String, now: Date) -> [Entry] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd HH:mm:ss"
        let nowText = formatter.string(from: now)
        var entries: [Entry] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.hasPrefix("#"), let space = trimmed.firstIndex(of: " ") else { continue }
            var host = String(trimmed[..<space])
            let rest = trimmed[trimmed.index(after: space)...].trimmingCharacters(in: .whitespaces)
            guard rest.count >= 2, rest.hasPrefix("\""), rest.hasSuffix("\"") else { continue }
            let expiry = String(rest.dropFirst().dropLast())
            let isDate = expiry.count == 17 && formatter.date(from: expiry) != nil
            guard isDate || expiry == "unlimited" else { continue }
            guard expiry == "unlimited" || expiry > nowText else { continue }
            let includesSubdomains = host.hasPrefix(".")
            if includesSubdomains { host.removeFirst() }
            guard !host.isEmpty, host.utf8.count < 256, !host.contains(where: { $0.isWhitespace || $0 == "\"" }) else { continue }
            entries.append(Entry(host: host, includesSubdomains: includesSubdomains, expiry: expiry))
        }
        return entries
    }
}
