/// A model that ObjectMapper's `<-` operator reads from and writes to a ``Map``: the one
/// requirement is the mapping itself, which runs in both directions (``MappingType``).
///
/// Ported model files keep their code; only `import ObjectMapper` becomes `import ChainModels`.
/// Classes implement the requirement with a plain `func mapping(map: Map)`.
public protocol BaseMappable {
    /// Reads (``MappingType/fromJSON``) or writes (``MappingType/toJSON``) every property with
    /// `<-`, e.g. `name <- map["name"]`.
    mutating func mapping(map: Map)
}
