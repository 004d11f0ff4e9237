/// The `name=value, name="quoted value"` list after the scheme of an `Authorization` field
/// (RFC 9110 §11.2, as Digest uses it).
enum AuthParameters {
    /// The scheme (lower-cased) and the parameters (names lower-cased, quoted values unquoted
    /// with `\` escapes); nil when the field has no scheme. The first of a repeated name wins.
    static func parse(_ field: String) -> (scheme: String, parameters: [String: String])? {
        let scalars = Array(field.unicodeScalars)
        var index = 0
        while index < scalars.count, scalars[index] == " " { index += 1 }
        var scheme = ""
        while index < scalars.count, scalars[index] != " " {
            scheme.unicodeScalars.append(scalars[index])
            index += 1
        }
        guard !scheme.isEmpty else { return nil }
        var parameters: [String: String] = [:]
        while index < scalars.count {
            while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" || scalars[index] == "," { index += 1 }
            var name = ""
            while index < scalars.count, scalars[index] != "=", scalars[index] != "," {
                name.unicodeScalars.append(scalars[index])
                index += 1
            }
            var value = ""
            if index < scalars.count, scalars[index] == "=" {
                index += 1
                while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
                if index < scalars.count, scalars[index] == "\"" {
                    index += 1
                    while index < scalars.count, scalars[index] != "\"" {
                        if scalars[index] == "\\", index + 1 < scalars.count { index += 1 }
                        value.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    index += 1
                    while index < scalars.count, scalars[index] != "," { index += 1 }
                } else {
                    while index < scalars.count, scalars[index] != "," {
                        value.unicodeScalars.append(scalars[index])
                        index += 1
                    }
                    value = value.trimmingOWS()
                }
            }
            let key = name.trimmingOWS().lowercased()
            if !key.isEmpty && parameters[key] == nil { parameters[key] = value }
        }
        return (scheme.lowercased(), parameters)
    }
}
