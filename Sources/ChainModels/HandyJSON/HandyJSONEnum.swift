/// HandyJSON's enum protocol: a `RawRepresentable` enum whose raw value is `Codable`
/// (`enum Level: Int, HandyJSONEnum { case low = 1 }`). In a ``HandyJSON`` model its raw value
/// converts as tolerant mode's scalars do (`"1"` for an `Int` raw value).
public protocol HandyJSONEnum: Codable, RawRepresentable where RawValue: Codable {}
