/// Parameters of a header value such as `multipart/form-data; boundary="x"` or
/// `form-data; name="file"; filename="a.txt"`.
enum HeaderParameters {
    /// Parameter names (lower-cased) to values, quoted strings unquoted (with `\` escapes).
    /// The leading value (media type or disposition) is skipped; the first of a repeated name wins.
    static func parse(_ value: String) -> [String: String] {
        let scalars = Array(value.unicodeScalars)
        var index = 0
        // Skip the leading value up to the first ';' outside quotes.
        var inQuotes = false
        while index < scalars.count {
            let scalar = scalars[index]
            if scalar == "\"" { inQuotes.toggle() }
            index += 1
            if scalar == ";" && !inQuotes { break }
        }
        return parameters(scalars, from: index, separatedBy: ";")
    }

    /// `name=value` pairs from `index` on, separated by `separator` (`;` in media types, `,`
    /// in authentication parameters): names lower-cased, quoted values unquoted with `\`
    /// escapes, others trimmed; the first of a repeated name wins.
    static func parameters(_ scalars: [Unicode.Scalar], from start: Int, separatedBy separator: Unicode.Scalar) -> [String: String] {
        var result: [String: String] = [:]
        var index = start
        while index < scalars.count {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" || scalars[index] == separator {
                index += 1
            }
            var name = ""
            while index < scalars.count, scalars[index] != "=", scalars[index] != separator {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            var parameterValue = ""
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
                if index < scalars.count, scalars[index] == "\"" {
                    index += 1
                    while index < scalars.count, scalars[index] != "\"" {
                        if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                        parameterValue.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    index += 1
                    while index < scalars.count, scalars[index] != separator { index += 1 }
                } else {
                    while index < scalars.count, scalars[index] != separator {
                        parameterValue.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    parameterValue = parameterValue.trimmingOWS()
                }
            }
            let key = name.trimmingOWS().lowercased()
            if !key.isEmpty && result[key] == nil { result[key] = parameterValue }
        }
        return result
    }
}
