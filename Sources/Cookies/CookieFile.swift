import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The jar's file: readable JSON, `{"version": 1, "cookies": [...]}`, dates in seconds since
/// 1970. Written whole to a temporary file in the same directory (mode 0600, fsynced) and
/// renamed over the old one, so a crash leaves the old file or the new one, never a mix.
enum CookieFile {
    /// The format version this jar reads and writes.
    static let version = 1
    /// A larger file is refused unread: 3000 cookies of 5 KB are about 15 MB.
    static let maximumSize = 64 << 20

    struct Record: Codable {
        var name: String
        var value: String
        var domain: String
        var path: String
        var expires: Double?
        var secure: Bool
        var httpOnly: Bool
        var sameSite: String?
        var hostOnly: Bool
        var created: Double
        var lastAccess: Double
    }

    private struct Document: Codable {
        var version: Int
        var cookies: [Record]
    }

    private struct Header: Decodable {
        var version: Int
    }

    /// The cookies in the file with their last-access dates, or `nil` when there is no file.
    /// A record that could not have come from this jar (an empty name, a control character,
    /// a relative path) is skipped, so a hand-edited file cannot inject a header.
    static func load(from url: URL) throws(CookieJarError) -> [(cookie: Cookie, lastAccess: Date)]? {
        guard let data = try read(url.path) else { return nil }
        let decoder = JSONDecoder()
        let header: Header
        do {
            header = try decoder.decode(Header.self, from: data)
        } catch {
            throw CookieJarError(kind: .damaged, message: "\(url.path) is not a cookie file: \(reason(error))")
        }
        guard header.version == version else {
            throw CookieJarError(kind: .unsupportedVersion,
                                 message: "\(url.path) has format version \(header.version); this jar reads version \(version)")
        }
        let document: Document
        do {
            document = try decoder.decode(Document.self, from: data)
        } catch {
            throw CookieJarError(kind: .damaged, message: "\(url.path) is not a cookie file: \(reason(error))")
        }
        return document.cookies.compactMap(cookie(from:))
    }

    /// The file's bytes for `entries`.
    static func encode(_ entries: [StoredCookie]) throws(CookieJarError) -> Data {
        let records = entries.map { entry in
            Record(name: entry.cookie.name, value: entry.cookie.value, domain: entry.cookie.domain,
                   path: entry.cookie.path, expires: entry.cookie.expires?.timeIntervalSince1970,
                   secure: entry.cookie.isSecure, httpOnly: entry.cookie.isHTTPOnly,
                   sameSite: entry.cookie.sameSite?.rawValue, hostOnly: entry.cookie.isHostOnly,
                   created: entry.cookie.creationDate.timeIntervalSince1970,
                   lastAccess: entry.lastAccess.timeIntervalSince1970)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return try encoder.encode(Document(version: version, cookies: records))
        } catch {
            throw CookieJarError(kind: .writeFailed, message: "cannot encode the cookies: \(error)")
        }
    }

    /// Replaces the file at `url` with `data`, atomically. The directory must exist.
    static func write(_ data: Data, to url: URL) throws(CookieJarError) {
        let path = url.path
        let directory = url.deletingLastPathComponent().path
        let temporary = "\(directory)/.\(url.lastPathComponent).\(UUID().uuidString).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure("create", temporary, errno) }
        var error: CookieJarError?
        // The umask may have narrowed the mode further, never widened it, but make it exact.
        if fchmod(fd, 0o600) != 0 { error = failure("chmod", temporary, errno) }
        if error == nil {
            let code: Int32? = data.withUnsafeBytes { buffer -> Int32? in
                guard let base = buffer.baseAddress else { return nil }
                var offset = 0
                while offset < buffer.count {
                    let written = systemWrite(fd, base + offset, buffer.count - offset)
                    if written < 0 {
                        if errno == EINTR { continue }
                        return errno
                    }
                    offset += written
                }
                return nil
            }
            if let code { error = failure("write", temporary, code) }
        }
        if error == nil, fsync(fd) != 0 { error = failure("fsync", temporary, errno) }
        if close(fd) != 0, error == nil { error = failure("close", temporary, errno) }
        if error == nil, rename(temporary, path) != 0 { error = failure("rename onto \(path)", temporary, errno) }
        if let error {
            unlink(temporary)
            throw error
        }
        // Makes the rename itself durable; losing it on a crash only loses the newest write.
        let directoryFD = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFD >= 0 {
            _ = fsync(directoryFD)
            close(directoryFD)
        }
    }

    // MARK: - Internals

    private static func cookie(from record: Record) -> (cookie: Cookie, lastAccess: Date)? {
        guard Cookie.isAcceptable(name: record.name, value: record.value),
              !record.domain.isEmpty, record.path.utf8.first == UInt8(ascii: "/"),
              !record.path.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") }),
              record.created.isFinite, record.lastAccess.isFinite, record.expires?.isFinite ?? true else { return nil }
        var cookie = Cookie(name: record.name, value: record.value, domain: record.domain, path: record.path,
                            expires: record.expires.map(Date.init(timeIntervalSince1970:)),
                            isSecure: record.secure, isHTTPOnly: record.httpOnly,
                            sameSite: record.sameSite.flatMap(Cookie.SameSite.init(rawValue:)), isHostOnly: record.hostOnly)
        guard !cookie.domain.isEmpty else { return nil }
        cookie.creationDate = Date(timeIntervalSince1970: record.created)
        return (cookie, Date(timeIntervalSince1970: record.lastAccess))
    }

    /// The whole file, or `nil` when it does not exist; the size is checked before reading.
    private static func read(_ path: String) throws(CookieJarError) -> Data? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw CookieJarError(kind: .unreadable, message: "cannot open \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw CookieJarError(kind: .unreadable, message: "cannot stat \(path): \(String(cString: strerror(errno)))")
        }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw CookieJarError(kind: .unreadable, message: "\(path) is not a regular file")
        }
        guard status.st_size <= maximumSize else {
            throw CookieJarError(kind: .unreadable, message: "\(path) has \(status.st_size) bytes, more than the limit of \(maximumSize)")
        }
        var data = Data(count: Int(status.st_size))
        var offset = 0
        let code: Int32? = data.withUnsafeMutableBytes { buffer -> Int32? in
            guard let base = buffer.baseAddress else { return nil }
            while offset < buffer.count {
                let count = systemRead(fd, base + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                if count == 0 { break }
                offset += count
            }
            return nil
        }
        if let code {
            throw CookieJarError(kind: .unreadable, message: "cannot read \(path): \(String(cString: strerror(code)))")
        }
        if offset < data.count { data.removeSubrange(offset..<data.count) }
        return data
    }

    private static func failure(_ operation: String, _ path: String, _ code: Int32) -> CookieJarError {
        CookieJarError(kind: .writeFailed, message: "cannot \(operation) \(path): \(String(cString: strerror(code)))")
    }

    /// A decoding error in a sentence, without the values it found.
    private static func reason(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context), .keyNotFound(_, let context), .typeMismatch(_, let context),
             .valueNotFound(_, let context):
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
        @unknown default:
            return "\(decoding)"
        }
    }
}

// At file scope, where `read` and `write` are the C functions and not the enum's members.
private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
