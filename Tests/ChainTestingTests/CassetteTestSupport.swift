import ChainTesting
import Foundation
import SampleServer
import Testing
import TestSupport

// What the cassette suites share. Names start with `Cassette` so that they never meet the
// other suites' helpers in this target.

/// A temporary directory for one test's cassette files; `remove()` deletes it.
struct CassetteScratch {
    let directory: URL

    init() throws {
        directory = try temporaryDirectory("cassette")
    }

    /// A file in the directory (not created).
    func file(_ name: String = "cassette.json") -> URL {
        directory.appendingPathComponent(name)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// The names in the directory, hidden ones included, sorted.
    var contents: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }
}

/// A configuration of its own for one test: the server's base URL, no cookie jar (the shared
/// one would carry cookies between tests), the cassette as its only responder.
func cassetteConfiguration(_ baseURL: URL, _ cassette: Cassette?) -> ChainConfiguration {
    var configuration = ChainConfiguration(baseURL: baseURL)
    configuration.cookieJar = nil
    configuration.cassette = cassette
    return configuration
}

/// The sample API's user.
struct CassetteUser: Codable, Sendable, Equatable {
    let id: String
    let name: String
    let age: Int
    let email: String
}

/// The token routes' body.
struct CassetteToken: Codable, Sendable, Equatable {
    let token: String
}

/// The parts of the echo body the cassette tests read.
struct CassetteEcho: Decodable, Sendable, Equatable {
    let method: String
    let args: [String: String]
    let data: String
}

/// The cassette file parsed as plain JSON, to look at what was written.
struct CassetteFileContents {
    let root: [String: Any]

    init(_ url: URL) throws {
        let data = try Data(contentsOf: url)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw TestFailure("the cassette is not a JSON object")
        }
        self.root = root
    }

    var interactions: [[String: Any]] { root["interactions"] as? [[String: Any]] ?? [] }

    func request(_ index: Int) -> [String: Any] { interactions[index]["request"] as? [String: Any] ?? [:] }
    func response(_ index: Int) -> [String: Any] { interactions[index]["response"] as? [String: Any] ?? [:] }

    /// The header pairs of a request or response object, in order.
    static func headers(_ object: [String: Any]) -> [(String, String)] {
        (object["headers"] as? [[String: String]] ?? []).map { ($0["name"] ?? "", $0["value"] ?? "") }
    }
}

extension Request {
    /// The raw body delivery, with the response it came from.
    func cassetteDataDelivery() async -> Delivery<Data> {
        await withCheckedContinuation { continuation in
            responseDelivery(using: .data) { continuation.resume(returning: $0) }
        }
    }
}

extension NetworkError {
    /// The cassette error this one carries.
    var cassetteError: CassetteError? { underlyingError as? CassetteError }
}
