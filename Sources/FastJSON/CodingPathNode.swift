/// One component of a coding path, linked to its parent.
///
/// Containers share their parent's chain instead of copying arrays, and a
/// path only becomes `[CodingKey]` when someone asks (mostly for errors). The
/// container classes derive from it so that one allocation serves as both a
/// container's state and its place in the path.
class CodingPathNode {
    final let parent: CodingPathNode?
    final let key: PathKey

    init(parent: CodingPathNode?, key: PathKey) {
        self.parent = parent
        self.key = key
    }

    /// The path from the root to `node` (empty for `nil`), plus `key`.
    static func path(_ node: CodingPathNode?, appending key: PathKey = .none) -> [any CodingKey] {
        var reversed: [any CodingKey] = []
        if let last = key.codingKey { reversed.append(last) }
        var current = node
        while let next = current {
            if let component = next.key.codingKey { reversed.append(component) }
            current = next.parent
        }
        return reversed.reversed()
    }
}
