import Foundation

/// The body of a request.
public enum HTTPBody: Sendable, Hashable {
    /// No body. `POST`, `PUT` and `PATCH` still send `Content-Length: 0`.
    case none
    /// Bytes held in memory, sent as they are.
    case data(Data)
    /// A file streamed from disk in constant memory (`Content-Length` is the file's size).
    case file(URL)
    /// A `multipart/form-data` body built with libcurl's MIME API; file parts are streamed from disk.
    case multipart(MultipartFormData)

    /// The body's length when it is known before sending (`nil` for multipart or a missing file).
    public var knownLength: Int64? {
        switch self {
        case .none: 0
        case .data(let data): Int64(data.count)
        case .file(let url):
            (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        case .multipart: nil
        }
    }
}
