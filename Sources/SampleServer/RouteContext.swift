/// One request as a route sees it: the head, the unread body, the path parameters, the
/// server (for shared state and stop-aware waiting) and its connection's memory. Lives on
/// its connection's thread.
package final class RouteContext {
    package let head: RequestHead
    package let body: RequestBody
    package let server: ServerContext
    /// What earlier requests on the same connection left behind (NTLM's handshake state).
    package let connection: ConnectionMemory
    /// Values of the `:name` and `*` segments of the matched route pattern, percent-decoded.
    var parameters: [String: String] = [:]
    /// The decoded query string.
    let query: QueryItems

    init(head: RequestHead, body: RequestBody, context: ServerContext, connection: ConnectionMemory) {
        self.head = head
        self.body = body
        self.server = context
        self.connection = connection
        query = QueryItems(head.query)
    }

    var method: String { head.method }

    /// A path parameter of the matched route ("" if absent, which a pattern cannot produce).
    func parameter(_ name: String) -> String {
        parameters[name] ?? ""
    }

    /// The request's full URL as the client addressed it, for echo bodies.
    var url: String {
        let host = head.headers["Host"].flatMap { $0.isEmpty ? nil : $0 } ?? server.defaultHost
        return "http://\(host)\(head.path)" + (head.query.isEmpty ? "" : "?\(head.query)")
    }

    /// The request headers as a JSON object, names in Title-Case (like httpbin, so clients
    /// can look them up whatever spelling was sent); repeated fields are joined with ", ".
    var headersJSON: JSONValue {
        var order: [String] = []
        var values: [String: [String]] = [:]
        for (name, value) in head.headers {
            let canonical = Self.titleCase(name)
            if values[canonical] == nil { order.append(canonical) }
            values[canonical, default: []].append(value)
        }
        return .object(order.map { ($0, .string((values[$0] ?? []).joined(separator: ", "))) })
    }

    /// `content-type` → `Content-Type`.
    static func titleCase(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            .joined(separator: "-")
    }

    /// The media type of the body without parameters, lower-cased ("" when absent).
    var mediaType: String {
        guard let contentType = head.headers["Content-Type"] else { return "" }
        return (contentType.split(separator: ";").first.map { $0.trimmingOWS() } ?? "").lowercased()
    }

    /// A parameter (e.g. `boundary`) of the Content-Type header.
    func contentTypeParameter(_ name: String) -> String? {
        guard let contentType = head.headers["Content-Type"] else { return nil }
        return HeaderParameters.parse(contentType)[name.lowercased()]
    }

    /// A query value as a number within `range`, or `fallback` when absent; nil when present
    /// but not a number in range (the route answers 400).
    func queryDouble(_ name: String, default fallback: Double, in range: ClosedRange<Double>) -> Double? {
        guard let text = query[name] else { return fallback }
        guard let value = Double(text), value.isFinite else { return nil }
        return min(max(value, range.lowerBound), range.upperBound)
    }

    /// A query value as an integer clamped to `range`, or `fallback` when absent; nil when not an integer.
    func queryInt(_ name: String, default fallback: Int, in range: ClosedRange<Int>) -> Int? {
        guard let text = query[name] else { return fallback }
        guard let value = Int(text) else { return nil }
        return min(max(value, range.lowerBound), range.upperBound)
    }
}
