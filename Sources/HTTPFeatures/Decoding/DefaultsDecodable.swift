import HTTPCore
/// A `Decodable` model with an empty initialiser whose stored properties' declared defaults
/// (`var level: Int = 1`) are what a missing key or `null` gives. Such a type is always decoded
/// in ``JSONDecoding/tolerant(_:)`` mode, whatever the request's setting, when it is the type
/// decoded or the element of an array, dictionary or optional that is; nested inside another
/// type it is tolerant when that decode is (make the outer type conform too, or decode with
/// `.tolerant()`).
///
/// The defaults are read from `Mirror(reflecting: Self())`, matched by property name, so:
/// - they apply to keys that are the property names (synthesized `CodingKeys`, also under a
///   key decoding strategy); a `CodingKeys` case with a different raw value gets the type's
///   zero instead;
/// - a property wrapper's default is found under the property's name (its storage `_name`);
/// - a class's inherited properties are included (the mirror's superclass chain);
/// - a raw value an enum property has no case for also gives its declared default, as in
///   HandyJSON (a raw value of the wrong type still fails the decode).
public protocol DefaultsDecodable: Decodable {
    /// A value holding the declared defaults.
    init()
}
