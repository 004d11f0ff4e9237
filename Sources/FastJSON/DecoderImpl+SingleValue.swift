// The decoder is its own single value container (no allocation), reading the
// value it currently points at; errors carry the decoder's current path.
extension DecoderImpl: SingleValueDecodingContainer {
    func decodeNil() -> Bool {
        tape[valueIndex].kind == .null
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        try unwrapBool(at: valueIndex) { codingPath }
    }

    func decode(_ type: String.Type) throws -> String {
        try unwrapString(at: valueIndex) { codingPath }
    }

    func decode(_ type: Double.Type) throws -> Double {
        try unwrapDouble(at: valueIndex) { codingPath }
    }

    func decode(_ type: Float.Type) throws -> Float {
        try unwrapFloat(at: valueIndex) { codingPath }
    }

    func decode(_ type: Int.Type) throws -> Int { try integer() }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer() }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer() }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer() }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer() }
    func decode(_ type: Int128.Type) throws -> Int128 { try integer() }
    func decode(_ type: UInt.Type) throws -> UInt { try integer() }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer() }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer() }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer() }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer() }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try integer() }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try unwrap(T.self, at: valueIndex, parent: pathParent, key: pathKey)
    }

    @inline(__always)
    private func integer<T: FixedWidthInteger>() throws -> T {
        try unwrapInteger(T.self, at: valueIndex) { codingPath }
    }
}
