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
    /// Bytes produced while the request is sent, in bounded memory; sent once (see ``BodyStream``).
    case stream(BodyStream)

    /// The body's length when it is known before sending (`nil` for multipart, a missing file
    /// or a stream of unknown length).
    public var knownLength: Int64? {
        switch self {
        case .none: 0
        case .data(let data): Int64(data.count)
        case .file(let url):
            (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        case .multipart: nil
        case .stream(let stream): stream.length
        }
    }

    /// The stream of a ``stream(_:)`` body, `nil` for any other.
    package var stream: BodyStream? {
        if case .stream(let stream) = self { return stream }
        return nil
    }
}
