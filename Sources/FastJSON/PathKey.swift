/// The last component of a coding path before it is needed as a `CodingKey`.
///
/// A concrete enum rather than `(any CodingKey)?`: its layout is known at
/// compile time, so copying it in generic code needs no runtime metadata
/// lookup, and array positions stay plain integers until a path is printed.
enum PathKey {
    /// No component (the root, or a node that only carries container state).
    case none
    /// An array position, spelled "Index N" as Foundation spells it.
    case index(Int)
    /// A coding key.
    case key(any CodingKey)

    var codingKey: (any CodingKey)? {
        switch self {
        case .none: return nil
        case .index(let index): return JSONCodingKey(index: index)
        case .key(let key): return key
        }
    }
}
