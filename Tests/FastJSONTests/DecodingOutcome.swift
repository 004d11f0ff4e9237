import FastJSON
import Foundation

/// What one decoder made of one input: a value, or the parts of a
/// `DecodingError` that must agree between decoders (case, type or key,
/// coding path, debug description).
enum DecodingOutcome<Value: Equatable>: Equatable, CustomStringConvertible {
    case value(Value)
    case decodingError(kind: String, path: [String], message: String)
    case otherError(String)

    init(_ body: () throws -> Value) {
        do {
            self = .value(try body())
        } catch let error as DecodingError {
            let (kind, context): (String, DecodingError.Context)
            switch error {
            case .typeMismatch(let type, let c): (kind, context) = ("typeMismatch(\(type))", c)
            case .valueNotFound(let type, let c): (kind, context) = ("valueNotFound(\(type))", c)
            case .keyNotFound(let key, let c): (kind, context) = ("keyNotFound(\(describeKey(key)))", c)
            case .dataCorrupted(let c): (kind, context) = ("dataCorrupted", c)
            @unknown default: (kind, context) = ("unknown", DecodingError.Context(codingPath: [], debugDescription: ""))
            }
            self = .decodingError(kind: kind, path: context.codingPath.map { describeKey($0) }, message: context.debugDescription)
        } catch {
            self = .otherError(String(describing: error))
        }
    }

    /// Whether this is a failure (of any kind).
    var isFailure: Bool {
        if case .value = self { return false }
        return true
    }

    var description: String {
        switch self {
        case .value(let value): return "value(\(value))"
        case .decodingError(let kind, let path, let message): return "\(kind) at \(path): \(message)"
        case .otherError(let text): return "error: \(text)"
        }
    }
}

/// A coding key as text: its string value, and its integer value if any.
private func describeKey(_ key: any CodingKey) -> String {
    key.intValue.map { "\(key.stringValue)#\($0)" } ?? key.stringValue
}
