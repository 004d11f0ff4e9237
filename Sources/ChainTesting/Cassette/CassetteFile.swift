import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The cassette file: `{"interactions": [...], "version": 1}`, pretty-printed with sorted
/// keys (and a final newline) so that a re-recording shows as a readable diff.
struct CassetteFile: Sendable, Hashable, Codable {
    /// The one format version this code reads and writes.
    static let currentVersion = 1

    var version: Int
    /// In the order they were recorded (a re-recording takes the place of what it replaces).
    var interactions: [CassetteInteraction]

    init(interactions: [CassetteInteraction]) {
        version = Self.currentVersion
        self.interactions = interactions
    }

    /// The version alone, read first so that a file of another version is refused by its
    /// version rather than by whatever shape it has.
    private struct VersionProbe: Decodable {
        var version: Int?
    }

    /// The file at `url`, or `nil` when there is none.
    /// - Throws: ``CassetteError/damaged(path:reason:)`` when it cannot be read or is not a
    ///   cassette of ``currentVersion``.
    static func load(from url: URL) throws(CassetteError) -> CassetteFile? {
        let path = url.path
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .damaged(path: path, reason: "cannot read it: \(error.localizedDescription)")
        }
        let decoder = JSONDecoder()
        do {
            guard let version = try decoder.decode(VersionProbe.self, from: data).version else {
                throw CassetteError.damaged(path: path, reason: "it has no \"version\"")
            }
            guard version == currentVersion else {
                throw CassetteError.damaged(path: path, reason: "version \(version) is unknown (this library reads version \(currentVersion))")
            }
            return try decoder.decode(CassetteFile.self, from: data)
        } catch let error as CassetteError {
            throw error
        } catch let error as DecodingError {
            throw .damaged(path: path, reason: describe(error))
        } catch {
            throw .damaged(path: path, reason: error.localizedDescription)
        }
    }

    /// Writes the whole file atomically: into a temporary file in the same directory (made
    /// when missing), then renamed over the old one, so a reader — or the next test run after
    /// this process died — sees the old file or the new one, never half of one.
    /// - Throws: ``CassetteError/writeFailed(path:reason:)``.
    func write(to url: URL) throws(CassetteError) {
        let path = url.path
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw .writeFailed(path: path, reason: "cannot encode it: \(error.localizedDescription)")
        }
        data.append(UInt8(ascii: "\n"))
        let directory = url.deletingLastPathComponent()
        // A unique name per write: two cassettes in one directory, or two writes of one, never
        // share a temporary file.
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try data.write(to: temporary, options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw .writeFailed(path: path, reason: error.localizedDescription)
        }
        guard rename(temporary.path, path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw .writeFailed(path: path, reason: "cannot move the new file into place: \(reason)")
        }
    }

    /// What JSON calls the Swift type a decoder expected.
    private static func name(of type: Any.Type) -> String {
        switch type {
        case is [String: Any].Type: "an object"
        case is [Any].Type: "an array"
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: String(describing: type)
        }
    }

    /// A decoding failure as one line: what is wrong, and where in the file.
    private static func describe(_ error: DecodingError) -> String {
        func place(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return path.isEmpty ? "at the top level" : "at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)"
        }
        switch error {
        case .dataCorrupted(let context):
            // At the top level only the syntax can be wrong; the parser's error says where.
            if context.codingPath.isEmpty {
                return "not JSON: " + (context.underlyingError.map { String(describing: $0) } ?? context.debugDescription)
            }
            return "\(context.debugDescription) \(place(context))"
        case .keyNotFound(let key, let context):
            return "\"\(key.stringValue)\" is missing \(place(context))"
        case .typeMismatch(let type, let context):
            return "expected \(name(of: type)) \(place(context))"
        case .valueNotFound(let type, let context):
            return "expected \(name(of: type)), found null \(place(context))"
        @unknown default:
            return String(describing: error)
        }
    }
}
