import CPSL

/// The public-suffix list through libpsl, loaded once for the process.
///
/// `psl_latest` prefers the `publicsuffix` package's file (newer than the list built into the
/// library) and `psl_builtin` is the fallback. The context is never freed: it lives as long as
/// the process, like the list itself.
final class PublicSuffixList: @unchecked Sendable {
    // @unchecked Sendable: the libpsl context is immutable once loaded, and libpsl's lookups
    // only read it, so any thread may query it at the same time.
    private let context: OpaquePointer?

    /// The list every jar uses.
    static let shared = PublicSuffixList()

    private init() {
        context = psl_latest(nil) ?? psl_builtin()
    }

    /// `true` when cookies may not be set on `domain` (lowercase, no leading dot) by a host
    /// other than `domain` itself. The `*` rule counts, so an unlisted single label such as
    /// `localhost` or `internal` is public: a cookie from `localhost` with `Domain=localhost`
    /// becomes host-only, and `Domain=test` from `a.test` is refused.
    func isPublicSuffix(_ domain: String) -> Bool {
        guard let context else {
            // Without any list, only a single label is known to be a suffix.
            return !domain.utf8.contains(UInt8(ascii: "."))
        }
        return psl_is_public_suffix2(context, domain, Int32(PSL_TYPE_ANY)) != 0
    }
}
