// TEMPORARY until feat/tls lands (helper's file replaces this).
import Foundation
struct TLSFrontError: Error, Sendable, CustomStringConvertible { let message: String; var description: String { message } }
final class TLSFront: Sendable {
    let port: UInt16 = 0
    let certificateURL: URL
    init(upstreamPort: UInt16, directory: URL) throws(TLSFrontError) { throw TLSFrontError(message: "not yet") }
    func stop() {}
}
