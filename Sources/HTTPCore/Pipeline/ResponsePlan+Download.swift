import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The download plan behind ``DownloadPlan``: the body streams to a file (``HTTPRequest/download``)
/// and the delivery is where the file ends up.
extension ResponsePlan where Value == URL {
    /// Checks the status only (a file has no envelope or content type to check) and delivers
    /// the file's final location.
    ///
    /// - Parameters:
    ///   - written: the file the engine writes (``DownloadOptions/destination``).
    ///   - movesIntoPlace: whether `written` is a temporary file to move to `finalURL`'s answer
    ///     once the download succeeded, replacing what is there (`false` for a resumable
    ///     download, which writes straight to its destination).
    ///   - validateStatus: the front end's status rule; throws the status error.
    ///   - finalURL: where the file goes, given `written` and the response.
    /// An accepted status outside 2xx has its body in memory (the engine only streams 2xx
    /// bodies to disk): it is written to `written` first, so the caller always gets a file.
    static func download(writtenTo written: URL, movesIntoPlace: Bool,
                                 validateStatus: @escaping @Sendable (HTTPResponse) throws(NetworkError) -> Void,
                                 finalURL: @escaping @Sendable (URL, HTTPResponse) -> URL) -> ResponsePlan<URL> {
        ResponsePlan(validate: validateStatus, decode: { response throws(NetworkError) in
            if response.fileURL == nil {
                do {
                    try response.body.write(to: written)
                } catch {
                    throw NetworkError(.fileIO, "cannot write \(written.path): \(error.localizedDescription)",
                                       response: response, underlyingError: error)
                }
            }
            let target = finalURL(written, response)
            if movesIntoPlace { try moveReplacing(written, to: target, response: response) }
            return target
        })
    }

    /// A hidden file next to `destination` for a download to land in before it is moved into
    /// place: the same directory (so the move is a rename) and a unique name.
    static func temporaryFile(beside destination: URL) -> URL {
        destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).download")
    }

    /// Moves a finished download into place, replacing what is there; across file systems it
    /// copies, as `rename(2)` cannot.
    /// - Throws: ``NetworkError/Kind/fileIO`` with the response attached.
    package static func moveReplacing(_ source: URL, to target: URL, response: HTTPResponse) throws(NetworkError) {
        guard source.standardizedFileURL != target.standardizedFileURL else { return }
        if rename(source.path, target.path) == 0 { return }
        let reason = errno
        do {
            guard reason == EXDEV else { throw POSIXError(POSIXErrorCode(rawValue: reason) ?? .EIO) }
            if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
            try FileManager.default.copyItem(at: source, to: target)
            try? FileManager.default.removeItem(at: source)
        } catch {
            throw NetworkError(.fileIO, "cannot move the download to \(target.path): \(error.localizedDescription)",
                               response: response, underlyingError: error)
        }
    }
}
