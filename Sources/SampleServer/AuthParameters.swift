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
        let parameters = HeaderParameters.parameters(scalars, from: index, separatedBy: ",")
        return (scheme.lowercased(), parameters)
    }
}
