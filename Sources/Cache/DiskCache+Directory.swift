import Digest
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension DiskCache {
    /// The default directory for a cache called `name`: `$XDG_CACHE_HOME/<name>` when that
    /// variable holds an absolute path, else `~/.cache/<name>` (home from `$HOME`, else the
    /// password database). Never a shared temporary directory; `nil` when there is no home.
    public static func defaultDirectory(name: String) -> URL? {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(name, isDirectory: true)
        }
        var home = environment["HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        if home == nil, let entry = getpwuid(geteuid()), let directory = entry.pointee.pw_dir {
            let path = String(cString: directory)
            if path.hasPrefix("/") { home = path }
        }
        guard let home else { return nil }
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".cache", isDirectory: true)
            .appendingPathComponent(name, isDirectory: true)
    }

    /// A store for one user (or any other partition) in the subdirectory
    /// `namespaces/<name>` of this store's directory, with the same limits (applied per
    /// namespace, the memory budget included), clock and the reporter this store has at the time. Asking twice for a name returns the same store;
    /// removing all of a namespace's entries is how to forget a user.
    /// Names of letters, digits, `.`, `_` and `-` (up to 64, not starting with `.`) are used
    /// as they are; others are hashed.
    public func namespace(_ name: String) -> DiskCache {
        state.withLock { state in
            if let existing = state.namespaces[name] { return existing }
            let store = DiskCache(optionalDirectory: directory?
                                      .appendingPathComponent("namespaces", isDirectory: true)
                                      .appendingPathComponent(DiskCache.namespaceDirectoryName(name), isDirectory: true),
                                  maximumSize: maximumSize, lowWatermark: lowWatermark,
                                  maximumEntrySize: maximumEntrySize, memoryBudget: memoryBudget, clock: clock,
                                  reporter: state.reporter)
            state.namespaces[name] = store
            return store
        }
    }

    static func namespaceDirectoryName(_ name: String) -> String {
        let safe = !name.isEmpty && name.utf8.count <= 64 && !name.hasPrefix(".")
            && name.utf8.allSatisfy { byte in
                (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                    || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ".")
                    || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            }
        return safe ? "n-" + name : "h-" + String(SHA256.hexDigest(name).prefix(32))
    }

    // MARK: File names

    static let metadataSuffix = ".meta"
    static let bodySuffix = ".body"
    static let temporaryPrefix = ".tmp-"
    static let lockFileName = ".lock"

    static func isLowerHex(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
    }

    /// `<64 hex>.meta` → the hash, else `nil`.
    static func hash(ofMetadataFile name: String) -> String? {
        guard name.utf8.count == 64 + metadataSuffix.utf8.count, name.hasSuffix(metadataSuffix) else { return nil }
        let hash = String(name.dropLast(metadataSuffix.count))
        return hash.utf8.allSatisfy(isLowerHex) ? hash : nil
    }

    /// Whether `name` is `<hash>-<16 hex>.body` (no path separators can sneak in).
    static func isBodyFileName(_ name: String, of hash: String) -> Bool {
        guard name.utf8.count == hash.utf8.count + 1 + 16 + bodySuffix.utf8.count,
              name.hasPrefix(hash + "-"), name.hasSuffix(bodySuffix) else { return false }
        return name.utf8.dropFirst(hash.utf8.count + 1).prefix(16).allSatisfy(isLowerHex)
    }

    /// Whether `name` looks like any entry's body file.
    static func isAnyBodyFileName(_ name: String) -> Bool {
        guard name.utf8.count == 64 + 1 + 16 + bodySuffix.utf8.count else { return false }
        return isBodyFileName(name, of: String(name.prefix(64))) && name.utf8.prefix(64).allSatisfy(isLowerHex)
    }

    /// `digits` random lower-case hex digits: every write names two or three files this way.
    static func randomHex(_ digits: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits / 2 + 8)
        while bytes.count * 2 < digits {
            withUnsafeBytes(of: generator.next() as UInt64) { bytes.append(contentsOf: $0) }
        }
        let hex = SHA256.hexString(bytes)
        return hex.utf8.count == digits ? hex : String(hex.prefix(digits))
    }

    func path(_ name: String) -> String? {
        directoryPrefix.map { $0 + name }
    }
}
