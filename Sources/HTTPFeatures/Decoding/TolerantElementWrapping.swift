import HTTPCore
/// A container type whose element decides whether a decode involves ``DefaultsDecodable``.
protocol TolerantElementWrapping {
    static var wrappedType: Any.Type { get }
}

extension Array: TolerantElementWrapping {
    static var wrappedType: Any.Type { Element.self }
}

extension Dictionary: TolerantElementWrapping {
    static var wrappedType: Any.Type { Value.self }
}

extension Optional: TolerantElementWrapping {
    static var wrappedType: Any.Type { Wrapped.self }
}
