import Digest
import Foundation

/// A client side of NTLM written from MS-NLMP for the route tests, independent of the
/// server's `NTLMHandshake`.
enum NTLMTestMessages {
    enum Failure: Error { case noChallenge, malformed }

    /// A type-1 message asking for Unicode, NTLM and target info (as libcurl's does).
    static let negotiate = Data(Array("NTLMSSP\0".utf8) + [1, 0, 0, 0] + le32(0x0008_8207)
        + [UInt8](repeating: 0, count: 16)).base64EncodedString()

    /// The server challenge and target info of a `WWW-Authenticate: NTLM <type 2>` value.
    static func serverChallenge(from header: String?) throws -> (challenge: [UInt8], targetInfo: [UInt8]) {
        guard let header, header.hasPrefix("NTLM "), let data = Data(base64Encoded: String(header.dropFirst(5))) else {
            throw Failure.noChallenge
        }
        let bytes = Array(data)
        guard bytes.count >= 48, Array(bytes[0..<8]) == Array("NTLMSSP\0".utf8), bytes[8] == 2 else { throw Failure.malformed }
        let length = Int(bytes[40]) | Int(bytes[41]) << 8
        let offset = Int(bytes[44]) | Int(bytes[45]) << 8
        guard offset + length <= bytes.count else { throw Failure.malformed }
        return (Array(bytes[24..<32]), Array(bytes[offset..<offset + length]))
    }

    /// A type-3 message with an NTLMv2 response (Unicode names, no LM response).
    static func authenticate(user: String, domain: String, password: String, challenge: [UInt8], targetInfo: [UInt8]) -> String {
        let ntowf = MD5.authenticationCode(for: utf16LE(user.uppercased() + domain), key: MD4.hash(utf16LE(password)))
        let blob: [UInt8] = [1, 1, 0, 0, 0, 0, 0, 0] + [UInt8](repeating: 0x11, count: 8) + [UInt8](repeating: 0x22, count: 8)
            + [0, 0, 0, 0] + targetInfo + [0, 0, 0, 0]
        let ntResponse = MD5.authenticationCode(for: challenge + blob, key: ntowf) + blob
        let payloads = [[UInt8](repeating: 0, count: 24), ntResponse, utf16LE(domain), utf16LE(user), utf16LE("WS"), []]
        var header = Array("NTLMSSP\0".utf8) + [3, 0, 0, 0]
        var offset = 64
        for payload in payloads {
            header += le16(payload.count) + le16(payload.count) + le32(UInt32(offset))
            offset += payload.count
        }
        header += le32(0x0008_8205)
        return Data(header + payloads.flatMap { $0 }).base64EncodedString()
    }

    static func utf16LE(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8($0 & 0xff), UInt8($0 >> 8)] }
    }

    private static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)] }
    private static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
}
