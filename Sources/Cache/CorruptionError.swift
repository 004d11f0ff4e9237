/// Why an entry was judged unreadable.
struct CorruptionError: Error, Sendable {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
