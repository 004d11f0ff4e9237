/// How a ``Cassette`` decides that a request is one it recorded.
///
/// Both sides are compared in their redacted forms (the cassette's ``Cassette/redaction``),
/// since that is all the file keeps: a login whose password was recorded as `***` matches the
/// same login sent again, whatever its password. By default a request matches when its method,
/// its canonical URL and its body are the same:
///
/// - the URL: scheme and host lower-cased, the default port (80 for `http`, 443 for `https`)
///   dropped, an empty path read as `/`, the query items sorted, the fragment dropped;
/// - the body: a JSON object or array compared as JSON (key order and white space do not
///   count), any other body byte for byte; a streamed body (of unknown bytes) is not compared.
///
/// ```swift
/// let matching = CassetteMatching.default
///     .ignoringQueryParameters("timestamp", "signature")
///     .comparingHeaders("Accept-Language")
/// ```
public struct CassetteMatching: Sendable, Hashable {
    /// Whether bodies must be the same. Default `true`.
    public var comparesBody: Bool
    /// Query parameters left out of the comparison, by name as it reads decoded (timestamps,
    /// nonces, signatures). Default none.
    public var ignoredQueryParameters: Set<String>
    /// Request headers (any case) whose values must be the same too, every value in order.
    /// Default none.
    public var comparedHeaders: Set<String>

    /// Makes a rule; every argument has the default stated on its property.
    public init(comparesBody: Bool = true, ignoredQueryParameters: Set<String> = [], comparedHeaders: Set<String> = []) {
        self.comparesBody = comparesBody
        self.ignoredQueryParameters = ignoredQueryParameters
        self.comparedHeaders = comparedHeaders
    }

    /// Method, canonical URL and body.
    public static let `default` = CassetteMatching()

    /// This rule without comparing bodies.
    public func ignoringBody() -> CassetteMatching {
        var copy = self
        copy.comparesBody = false
        return copy
    }

    /// This rule, leaving the query parameters with these names out of the comparison too.
    public func ignoringQueryParameters(_ names: String...) -> CassetteMatching {
        var copy = self
        copy.ignoredQueryParameters.formUnion(names)
        return copy
    }

    /// This rule, comparing the values of these request headers (any case) too.
    public func comparingHeaders(_ names: String...) -> CassetteMatching {
        var copy = self
        copy.comparedHeaders.formUnion(names)
        return copy
    }
}
