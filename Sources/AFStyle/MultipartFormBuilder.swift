import Foundation

/// The `formData` a `POST(_:parameters:headers:constructingBodyWith:…)` block appends parts
/// to: the counterpart of AFNetworking's `AFMultipartFormData`, building an
/// ``HTTPCore/MultipartFormData``.
///
/// File parts are streamed from disk while sending, never read into memory. A file that is
/// missing or unreadable makes its `appendPart` throw ``NetworkError/Kind/fileIO`` and also
/// fails the whole call through `failure`, even when the block ignored the error with `try?`,
/// so a form never goes out without a part its author asked for.
///
/// The builder is only valid inside the block, which runs synchronously on the calling thread.
public final class MultipartFormBuilder {
    /// The form built so far.
    public private(set) var formData = MultipartFormData()
    /// The first error an `appendPart` threw, which fails the call.
    private(set) var firstError: NetworkError?

    init() {}

    /// Appends a file part streamed from disk; the file name is the URL's last path component
    /// and the MIME type is guessed from its extension (`application/octet-stream` when unknown).
    /// - Throws: ``NetworkError/Kind/fileIO`` when the URL is not a readable file.
    public func appendPart(withFileURL fileURL: URL, name: String) throws(NetworkError) {
        try appendPart(withFileURL: fileURL, name: name, fileName: fileURL.lastPathComponent,
                       mimeType: MultipartFormBuilder.mimeType(forExtension: fileURL.pathExtension))
    }

    /// Appends a file part streamed from disk, with the file name and MIME type the server sees.
    /// - Throws: ``NetworkError/Kind/fileIO`` when the URL is not a readable file.
    public func appendPart(withFileURL fileURL: URL, name: String, fileName: String, mimeType: String) throws(NetworkError) {
        var isDirectory: ObjCBool = false
        guard fileURL.isFileURL, FileManager.default.fileExists(atPath: fileURL.path, isDirectory: &isDirectory),
              !isDirectory.boolValue, FileManager.default.isReadableFile(atPath: fileURL.path) else {
            let error = NetworkError(.fileIO, "the file \(fileURL.path) for part \"\(name)\" does not exist or cannot be read")
            if firstError == nil { firstError = error }
            throw error
        }
        formData.append(fileURL: fileURL, name: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends in-memory bytes as a file part.
    public func appendPart(withFileData data: Data, name: String, fileName: String, mimeType: String) {
        formData.append(data, name: name, fileName: fileName, mimeType: mimeType)
    }

    /// Appends a plain form field (no file name, no `Content-Type`).
    public func appendPart(withFormData data: Data, name: String) {
        formData.append(MultipartFormData.Part(name: name, content: .data(data)))
    }

    /// The same as ``appendPart(withFormData:name:)``, under the name Swift gives
    /// AFNetworking's `appendPartWithFormData:name:`.
    public func appendPart(withForm data: Data, name: String) {
        appendPart(withFormData: data, name: name)
    }

    /// Appends the call's `parameters` as form fields, flattened as AFNetworking flattens
    /// them (`user[name]`, `ids[]`), keys sorted, before the block's own parts.
    func appendFields(_ parameters: [String: Parameter]) {
        for key in parameters.keys.sorted() {
            appendFields(parameters[key] ?? .null, name: key)
        }
    }

    private func appendFields(_ value: Parameter, name: String) {
        switch value {
        case .dictionary(let dictionary):
            for key in dictionary.keys.sorted() { appendFields(dictionary[key] ?? .null, name: "\(name)[\(key)]") }
        case .array(let items):
            for item in items { appendFields(item, name: "\(name)[]") }
        case .null: formData.append("", name: name)
        case .string(let text): formData.append(text, name: name)
        case .int(let number): formData.append(String(number), name: name)
        case .double(let number):
            let integral = number == number.rounded() && abs(number) < 1e15
            formData.append(integral ? String(Int64(number)) : "\(number)", name: name)
        case .bool(let flag): formData.append(flag ? "1" : "0", name: name)
        }
    }

    /// A MIME type for common file extensions, as AFNetworking asks the system for one.
    static func mimeType(forExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "txt", "text": "text/plain"
        case "html", "htm": "text/html"
        case "css": "text/css"
        case "csv": "text/csv"
        case "json": "application/json"
        case "xml": "application/xml"
        case "pdf": "application/pdf"
        case "zip": "application/zip"
        case "gz": "application/gzip"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "svg": "image/svg+xml"
        case "mp3": "audio/mpeg"
        case "mp4": "video/mp4"
        case "mov": "video/quicktime"
        default: "application/octet-stream"
        }
    }
}
