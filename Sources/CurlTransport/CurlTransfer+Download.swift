import CCurl
import Foundation
import HTTPCore

#if canImport(Glibc)
import Glibc
#endif

// Downloads (loop thread): writing a 2xx body to its file, and resuming a partial file.

extension CurlTransfer {
    /// For a resumed download with a partial file: its length (sent as `Range: bytes=N-`) and
    /// its validator (sent as `If-Range`). The range is asked for in a header of our own, not
    /// with `CURLOPT_RESUME_FROM_LARGE`: libcurl then failed a server that ignores ranges
    /// (curl 33) instead of letting its 200 rewrite the file, and the answer is checked here
    /// (``openDownloadFile(_:)``, ``result(for:)``).
    func prepareResume() {
        guard let download = request.download, download.resumesPartialFile else { return }
        var status = stat()
        guard stat(download.destination.path, &status) == 0, status.st_size > 0 else { return }
        resumeOffset = Int64(status.st_size)
        resumeValidator = CurlTransfer.storedValidator(ofFileAt: download.destination.path)
    }

    /// The extended attribute that keeps a resumable download's validator on its file: it
    /// goes where the file goes (a rename keeps it) and with it (no sidecar left behind).
    static let validatorAttribute = "user.chain.validator"

    /// The validator stored on the file, when it has one that is safe to send as a field value.
    static func storedValidator(ofFileAt path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 512)
        let count = getxattr(path, validatorAttribute, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let bytes = buffer.prefix(count)
        // Written by us, but it is outside input: printable ASCII only, so it cannot inject a line.
        guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The validator of the response being written: a strong `ETag` (a weak one may not be
    /// sent in `If-Range`), else `Last-Modified`.
    private func responseValidator() -> String? {
        if let tag = headerValue("ETag"), !tag.hasPrefix("W/"), !tag.isEmpty { return tag }
        return headerValue("Last-Modified").flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The first byte position of a `Content-Range: bytes first-last/length` answer, or the
    /// length of a `bytes */length` one (`nil` when absent or not of that form).
    private func contentRange() -> (first: Int64?, length: Int64?)? {
        guard let value = headerValue("Content-Range"), value.lowercased().hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst(6).split(separator: "/", maxSplits: 1)
        guard spec.count == 2 else { return nil }
        let first = spec[0] == "*" ? nil : spec[0].split(separator: "-").first.flatMap { Int64($0) }
        return (first, Int64(spec[1]))
    }

    /// Whether a resumed download's 416 says the partial file is already the whole
    /// representation (`Content-Range: bytes */N` with N its length).
    var resumedFileIsComplete: Bool {
        resumeOffset > 0 && head.statusCode == 416 && contentRange()?.length == resumeOffset
    }

    func writeDownload(_ bytes: UnsafeRawBufferPointer, to download: DownloadOptions) -> Int {
        if !downloadStarted {
            downloadStarted = true
            guard openDownloadFile(download) else { return 0 }
        }
        var offset = 0
        while offset < bytes.count {
            guard let base = bytes.baseAddress else { return 0 }
            let written = write(downloadFD, base + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                fileError = "cannot write \(download.destination.path): \(String(cString: strerror(errno)))"
                return 0
            }
            offset += written
        }
        return bytes.count
    }

    /// Opens the destination: appending when a resumed request got a `206` that starts where
    /// the partial file ends, from scratch otherwise (a `200` rewrites the file). A `206` that
    /// starts elsewhere is refused (``failure``), the partial file left as it was. A
    /// resumable download's file keeps its response's validator for the next attempt.
    func openDownloadFile(_ download: DownloadOptions) -> Bool {
        let appending = resumeOffset > 0 && head.statusCode == 206
        if appending {
            let first = contentRange()?.first ?? nil
            guard first == resumeOffset else {
                let start = first.map { "at byte \($0)" } ?? "without a byte range"
                failure = NetworkError(.invalidResponse, "the server resumed \(download.destination.path) \(start), not at \(resumeOffset) where the partial file ends; the file was left as it was",
                                       response: partialResponse())
                return false
            }
        }
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (appending ? O_APPEND : O_TRUNC)
        downloadFD = open(download.destination.path, flags, 0o644)
        if downloadFD < 0 {
            fileError = "cannot open \(download.destination.path): \(String(cString: strerror(errno)))"
            return false
        }
        if download.resumesPartialFile {
            // Best effort: on a file system without extended attributes the next attempt
            // resumes without `If-Range`.
            if let validator = responseValidator() {
                _ = fsetxattr(downloadFD, CurlTransfer.validatorAttribute, validator, validator.utf8.count, 0)
            } else if !appending {
                _ = fremovexattr(downloadFD, CurlTransfer.validatorAttribute)
            }
        }
        return true
    }
}
