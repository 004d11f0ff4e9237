import HTTPCore
/// The key paths that ``KeyPathPayload`` and ``EnvelopeHeader`` follow during one `decode` call.
///
/// They travel in task locals, bound around the call, because a `Decodable` initialiser has
/// no other way to receive run-time arguments without mutating the caller's `JSONDecoder`
/// (`userInfo`), which may be shared between threads. Task locals also bind in synchronous
/// code outside any task (they fall back to a thread-local), which is where plans run.
enum KeyPathContext {
    @TaskLocal static var payloadPath: [String] = []
    @TaskLocal static var codePath: [String] = []
    @TaskLocal static var messagePath: [String] = []

    /// `"a.b.c"` as `["a", "b", "c"]`; empty components (`"a..b"`, a trailing dot) are dropped.
    static func components(_ path: String?) -> [String] {
        guard let path else { return [] }
        return path.split(separator: ".", omittingEmptySubsequences: true).map(String.init)
    }

    /// The keyed container that holds the last component of `path`, reached through nested
    /// containers so that errors carry the full coding path.
    static func parentContainer(of path: [String], in decoder: any Decoder) throws -> KeyedDecodingContainer<DynamicCodingKey> {
        var container = try decoder.container(keyedBy: DynamicCodingKey.self)
        for key in path.dropLast() {
            container = try container.nestedContainer(keyedBy: DynamicCodingKey.self, forKey: DynamicCodingKey(key))
        }
        return container
    }
}
