import Digest

/// The server side of NTLM's three messages (MS-NLMP), enough to check an NTLMv2 response:
/// the client's NEGOTIATE (type 1), this server's CHALLENGE (type 2, with target info, so
/// clients answer with NTLMv2) and the client's AUTHENTICATE (type 3).
enum NTLMHandshake {
    /// A decoded client message.
    enum ClientMessage {
        case negotiate
        case authenticate(Authenticate)
    }

    /// The fields of a type-3 message that the check needs.
    struct Authenticate {
        var user: String
        var domain: String
        /// The NTLMv2 response: NTProofStr (16 bytes) followed by the client's blob.
        var ntResponse: [UInt8]
    }

    /// The NetBIOS domain the challenge names, as a real server's would; the NTLMv2 check
    /// uses whatever domain the client sends back.
    static let domain = "SAMPLE"

    private static let signature = Array("NTLMSSP\0".utf8)
    private static let negotiateUnicode: UInt32 = 0x0000_0001
    private static let requestTarget: UInt32 = 0x0000_0004
    private static let negotiateNTLM: UInt32 = 0x0000_0200
    private static let alwaysSign: UInt32 = 0x0000_8000
    private static let targetTypeDomain: UInt32 = 0x0001_0000
    private static let extendedSessionSecurity: UInt32 = 0x0008_0000
    private static let negotiateTargetInfo: UInt32 = 0x0080_0000

    /// Decodes a client message; nil when it is not a well-formed type 1 or type 3.
    static func decode(_ message: [UInt8]) -> ClientMessage? {
        guard message.count >= 12, Array(message[0..<8]) == signature else { return nil }
        switch readUInt32(message, at: 8) {
        case 1: return .negotiate
        case 3:
            guard message.count >= 64,
                  let ntResponse = securityBuffer(message, at: 20),
                  let domain = securityBuffer(message, at: 28),
                  let user = securityBuffer(message, at: 36) else { return nil }
            let unicode = readUInt32(message, at: 60) & negotiateUnicode != 0
            return .authenticate(Authenticate(user: text(user, unicode: unicode), domain: text(domain, unicode: unicode),
                                              ntResponse: ntResponse))
        default: return nil
        }
    }

    /// A type-2 message carrying `challenge` (8 bytes) and target info naming `domain`.
    static func challengeMessage(_ challenge: [UInt8]) -> [UInt8] {
        let targetName = utf16LE(domain)
        var targetInfo: [UInt8] = []
        for (type, value) in [(UInt16(2), domain), (UInt16(1), "SAMPLESERVER")] {
            let encoded = utf16LE(value)
            targetInfo += littleEndian(type) + littleEndian(UInt16(encoded.count)) + encoded
        }
        targetInfo += [0, 0, 0, 0]
        let flags = negotiateUnicode | requestTarget | negotiateNTLM | alwaysSign | targetTypeDomain
            | extendedSessionSecurity | negotiateTargetInfo
        let headerLength = 48
        var message = signature + littleEndian(UInt32(2))
        message += littleEndian(UInt16(targetName.count)) + littleEndian(UInt16(targetName.count)) + littleEndian(UInt32(headerLength))
        message += littleEndian(flags) + challenge + [UInt8](repeating: 0, count: 8)
        message += littleEndian(UInt16(targetInfo.count)) + littleEndian(UInt16(targetInfo.count))
            + littleEndian(UInt32(headerLength + targetName.count))
        return message + targetName + targetInfo
    }

    /// Whether `message` proves knowledge of `password` for `user` under `challenge`:
    /// NTOWFv2 = HMAC-MD5(MD4(UTF-16LE(password)), UTF-16LE(uppercase(user) + domain)),
    /// NTProofStr = HMAC-MD5(NTOWFv2, challenge + blob). The user name compares case-insensitively.
    static func verify(_ message: Authenticate, user: String, password: String, challenge: [UInt8]) -> Bool {
        guard message.user.lowercased() == user.lowercased(), message.ntResponse.count > 16 else { return false }
        let ntHash = MD4.hash(utf16LE(password))
        let ntowf = MD5.authenticationCode(for: utf16LE(message.user.uppercased() + message.domain), key: ntHash)
        let blob = Array(message.ntResponse.dropFirst(16))
        let proof = MD5.authenticationCode(for: challenge + blob, key: ntowf)
        return proof == Array(message.ntResponse.prefix(16))
    }

    /// The bytes a security buffer (length, allocated length, offset) at `offset` points to,
    /// nil when it points outside the message.
    private static func securityBuffer(_ message: [UInt8], at offset: Int) -> [UInt8]? {
        let length = Int(message[offset]) | Int(message[offset + 1]) << 8
        let start = Int(readUInt32(message, at: offset + 4))
        guard start <= message.count, length <= message.count - start else { return nil }
        return Array(message[start..<start + length])
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
    }

    private static func text(_ bytes: [UInt8], unicode: Bool) -> String {
        guard unicode else { return String(decoding: bytes, as: UTF8.self) }
        var units: [UInt16] = []
        var index = 0
        while index + 1 < bytes.count {
            units.append(UInt16(bytes[index]) | UInt16(bytes[index + 1]) << 8)
            index += 2
        }
        return String(decoding: units, as: UTF16.self)
    }

    static func utf16LE(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] }
    }

    private static func littleEndian(_ value: UInt16) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8)]
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}
