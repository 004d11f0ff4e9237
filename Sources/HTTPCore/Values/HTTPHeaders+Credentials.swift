extension HTTPHeaders {
    /// What makes a header name a credential's: it contains one of these (compared without
    /// case). Redaction hides such headers; the cache hashes them into its keys.
    public static let credentialNameFragments = ["auth", "token", "key", "session"]

    /// Whether a header carries a credential: `Cookie`, `Set-Cookie`, or a name containing one
    /// of ``credentialNameFragments`` (`Authorization`, `X-Auth-Token`, `token`, `X-API-Key`).
    public static func isCredential(_ name: String) -> Bool {
        let name = name.lowercased()
        return name == "cookie" || name == "set-cookie" || credentialNameFragments.contains { name.contains($0) }
    }
}
