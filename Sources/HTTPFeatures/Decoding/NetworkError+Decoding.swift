import Foundation
import HTTPCore

extension NetworkError {
    /// Makes a ``NetworkError/Kind/decodingFailed`` error from whatever a decoder threw while
    /// making `type`, with the coding path (`data.items[2].name`; for a missing key, the key
    /// included) and the `DecodingError` as ``underlyingError``.
    ///
    /// - Parameters:
    ///   - error: what the decoder threw; a `NetworkError` is returned unchanged.
    ///   - type: the type being decoded, named in the message.
    ///   - response: the response whose body was decoded, attached to the error. Default `nil`.
    public static func decoding(_ error: any Error, type: Any.Type, response: HTTPResponse? = nil) -> NetworkError {
        if let error = error as? NetworkError { return error }
        let name = String(describing: type)
        guard let decodingError = error as? DecodingError else {
            return NetworkError(.decodingFailed, "could not decode \(name): \(error)", response: response,
                                underlyingError: error)
        }
        let path: [any CodingKey]
        let detail: String
        switch decodingError {
        case .keyNotFound(let key, let context):
            path = context.codingPath + [key]
            detail = "the key \"\(key.stringValue)\" is missing"
        case .valueNotFound(let expected, let context):
            path = context.codingPath
            detail = "expected \(expected) but found null"
        case .typeMismatch(let expected, let context):
            path = context.codingPath
            detail = "expected \(expected): \(context.debugDescription)"
        case .dataCorrupted(let context):
            path = context.codingPath
            if path.isEmpty, response?.body.isEmpty == true {
                detail = "the body is empty"
            } else {
                detail = context.debugDescription
            }
        @unknown default:
            path = []
            detail = "\(decodingError)"
        }
        let codingPath = path.isEmpty ? nil : describeCodingPath(path)
        let location = codingPath.map { " at \($0)" } ?? ""
        return NetworkError(.decodingFailed, "could not decode \(name)\(location): \(detail)", response: response,
                            codingPath: codingPath, underlyingError: decodingError)
    }

    /// A coding path as `data.items[2].name`: keys joined with dots, indices in brackets.
    public static func describeCodingPath(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        return text
    }
}
