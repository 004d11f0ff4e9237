import Foundation

/// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase`, step for step as
/// Foundation implements it (including its use of `lowercased()` and
/// `capitalized`), so converted keys match exactly.
enum SnakeCaseKeyConverter {
    static func convert(_ stringKey: String) -> String {
        guard !stringKey.isEmpty else { return stringKey }
        guard let firstNonUnderscore = stringKey.firstIndex(where: { $0 != "_" }) else {
            return stringKey
        }
        var lastNonUnderscore = stringKey.index(before: stringKey.endIndex)
        while lastNonUnderscore > firstNonUnderscore && stringKey[lastNonUnderscore] == "_" {
            stringKey.formIndex(before: &lastNonUnderscore)
        }
        let keyRange = firstNonUnderscore...lastNonUnderscore
        let leadingUnderscoreRange = stringKey.startIndex..<firstNonUnderscore
        let trailingUnderscoreRange = stringKey.index(after: lastNonUnderscore)..<stringKey.endIndex

        let components = stringKey[keyRange].split(separator: "_")
        let joinedString: String
        if components.count == 1 {
            joinedString = String(stringKey[keyRange])
        } else {
            joinedString = ([components[0].lowercased()] + components[1...].map { $0.capitalized }).joined()
        }
        if leadingUnderscoreRange.isEmpty && trailingUnderscoreRange.isEmpty {
            return joinedString
        } else if !leadingUnderscoreRange.isEmpty && !trailingUnderscoreRange.isEmpty {
            return String(stringKey[leadingUnderscoreRange]) + joinedString + String(stringKey[trailingUnderscoreRange])
        } else if !leadingUnderscoreRange.isEmpty {
            return String(stringKey[leadingUnderscoreRange]) + joinedString
        } else {
            return joinedString + String(stringKey[trailingUnderscoreRange])
        }
    }
}
