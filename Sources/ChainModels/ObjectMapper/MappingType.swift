/// The direction a ``Map`` runs in.
public enum MappingType: Sendable, Equatable {
    /// Reading a model from JSON (`Mapper.map…`, `init?(JSONString:)`).
    case fromJSON
    /// Writing a model to JSON (`toJSON()`, `toJSONString(prettyPrint:)`).
    case toJSON
}
