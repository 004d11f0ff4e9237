@testable import Cache
import Digest
import Foundation
import HTTPCore

/// libFuzzer entry: a cache metadata file as the store reads it back from disk. With the first
/// byte even, the rest of the input is the whole file (magic, length, payload, checksum); with
/// it odd, the rest is the JSON payload, framed here with a correct length and checksum so the
/// fuzzer reaches the decoder and the validation behind them. The reader's promise: anything
/// unreadable is a miss, never a crash, never a huge allocation or a path outside the store.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCacheEntry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let rest = Data(bytes: data + 1, count: size - 1)
    let file = data[0] & 1 == 0 ? rest : CacheMetadata.frame(rest)
    guard case .success(let metadata) = CacheMetadata.decode(file) else { return 0 }

    // The store validates against the file name it read: the SHA-256 hex of a key. A fuzzed
    // file names its own body, so take the hash that name claims when it is one (the fuzzer
    // can write 64 hex digits; it cannot find a hash's preimage), else the key's.
    let claimed = String(metadata.bodyFile.prefix(64))
    let fileName = claimed.utf8.count == 64 && claimed.utf8.allSatisfy(DiskCache.isLowerHex)
        ? claimed : SHA256.hexDigest(metadata.key)
    let maximumBodyLength: Int64 = 1 << 20
    guard metadata.validationProblem(fileName: fileName, maximumBodyLength: maximumBodyLength) == nil else { return 0 }
    precondition(metadata.bodyLength >= 0 && metadata.bodyLength <= maximumBodyLength, "validated length out of range")
    precondition(DiskCache.isBodyFileName(metadata.bodyFile, of: fileName) && !metadata.bodyFile.contains("/"),
                 "validated body file \(metadata.bodyFile.debugDescription) could leave the store")

    let body = Data(count: Int(metadata.bodyLength))
    guard let entry = metadata.entry(body: body, key: CacheKey(rawValue: metadata.key)) else { return 0 }
    let now = Date(timeIntervalSince1970: 1_700_000_000)
    _ = entry.response
    _ = entry.expiresAt
    _ = entry.etag
    _ = CacheStrategy.currentAge(of: entry, now: now)
    _ = CacheStrategy.decide(method: .get, requestHeaders: entry.headers, stored: entry, now: now)
    _ = CacheStrategy.decide(method: .get, requestHeaders: ["Cache-Control": "max-stale, min-fresh=5"], stored: entry, now: now)
    _ = CacheStrategy.headersAfterRevalidation(stored: entry.headers, notModified: entry.headers)
    // Writing it back must give a file that reads back to the same metadata.
    if let again = try? CacheMetadata(entry: entry, bodyFile: metadata.bodyFile).encoded(),
       case .success(let reread) = CacheMetadata.decode(again) {
        precondition(reread.key == metadata.key && reread.bodyFile == metadata.bodyFile, "metadata does not round-trip")
    }
    return 0
}
