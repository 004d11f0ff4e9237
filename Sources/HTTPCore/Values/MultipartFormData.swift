import Foundation

/// A `multipart/form-data` body: form fields, in-memory data and files streamed from disk.
///
/// libcurl writes the boundary and part headers; file parts are read while sending, so a
/// large file never sits in memory. A file that is missing or unreadable when the request
/// starts fails it with ``NetworkError/Kind/fileIO`` before anything is sent.
public struct MultipartFormData: Sendable, Hashable {
    /// Where a part's bytes come from.
    public enum Content: Sendable, Hashable {
        /// Bytes in memory.
        case data(Data)
        /// A file, streamed from disk.
        case file(URL)
    }

    /// One part of the form.
    public struct Part: Sendable, Hashable {
        /// The form field name (`Content-Disposition: form-data; name="…"`).
        public var name: String
        /// The file name sent to the server, or `nil` for a plain field.
        public var fileName: String?
        /// The part's `Content-Type`, or `nil` to let libcurl choose (text/plain for fields,
        /// a guess from the file extension for files, `application/octet-stream` otherwise).
        public var mimeType: String?
        /// The part's bytes.
        public var content: Content

        /// Makes a part.
        public init(name: String, fileName: String? = nil, mimeType: String? = nil, content: Content) {
            self.name = name
            self.fileName = fileName
            self.mimeType = mimeType
            self.content = content
        }
    }

    /// The parts in order.
    public private(set) var parts: [Part] = []

    /// Makes an empty form.
    public init() {}

    /// Appends a text field.
    public mutating func append(_ value: String, name: String) {
        parts.append(Part(name: name, content: .data(Data(value.utf8))))
    }

    /// Appends in-memory data, optionally as a file (with a file name and MIME type).
    public mutating func append(_ data: Data, name: String, fileName: String? = nil, mimeType: String? = nil) {
        parts.append(Part(name: name, fileName: fileName, mimeType: mimeType, content: .data(data)))
    }

    /// Appends a file streamed from disk. `fileName` defaults to the URL's last path component;
    /// `mimeType` defaults to a guess from the extension (`application/octet-stream` if unknown).
    public mutating func append(fileURL: URL, name: String, fileName: String? = nil, mimeType: String? = nil) {
        parts.append(Part(name: name, fileName: fileName ?? fileURL.lastPathComponent,
                          mimeType: mimeType, content: .file(fileURL)))
    }

    /// Appends a prepared part.
    public mutating func append(_ part: Part) { parts.append(part) }
}
