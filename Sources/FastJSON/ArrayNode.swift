/// The state of an unkeyed container that never changes, so the container
/// itself is three words and fits an existential without a heap box.
final class ArrayNode: CodingPathNode {
    let impl: DecoderImpl
    let array: Int
    let end: Int
    let count: Int

    init(impl: DecoderImpl, parent: CodingPathNode?, key: PathKey, array: Int) {
        self.impl = impl
        self.array = array
        let entry = impl.tape[array]
        end = entry.end
        count = entry.count
        super.init(parent: parent, key: key)
    }
}
