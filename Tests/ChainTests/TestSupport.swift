import Chain
import Foundation
import Synchronization
import Testing
@_exported import TestSupport

extension TestServer {
    /// A configuration whose base URL is the shared server, otherwise the defaults.
    static func configuration() throws -> ChainConfiguration {
        ChainConfiguration(baseURL: try baseURL)
    }
}

/// A URL nothing listens on: a stubbed request to it can only succeed without the network.
let unreachableURL = "http://127.0.0.1:9/nothing-here"

// MARK: Models of the sample API

struct User: Codable, Sendable, Equatable {
    let id: String
    let name: String
    let age: Int
    let email: String
}

/// The `{"error":"…","error_code":"…"}` error body.
struct APIError: Decodable, Error, Equatable {
    let error: String
    let error_code: String
}

struct ResultPayload: Codable, Sendable, Equatable {
    let result: String
}

struct RankItem: Codable, Sendable, Equatable {
    let title: String
    let subTitle: String
    let cover: String
    let argName: String
    @Lenient var argValue: Int
    @Lenient var rankingType: Int
}

/// The httpbin-like echo body (the parts the tests read).
struct Echo: Decodable, Sendable {
    let method: String
    let path: String
    let args: [String: String]
    let headers: [String: String]
    let form: [String: String]
    let bodyLength: Int
    let data: String
}

// MARK: Waiting for callbacks

extension Request {
    /// Runs a callback terminal and waits for its single delivery.
    func callbackResult<T: Decodable & Sendable>(_ type: T.Type) async -> Result<T, NetworkError> {
        await withCheckedContinuation { continuation in
            response(type) { continuation.resume(returning: $0) }
        }
    }

    /// Runs the `Void` terminal and waits.
    func callbackVoidResult() async -> Result<Void, NetworkError> {
        await withCheckedContinuation { continuation in
            response { continuation.resume(returning: $0) }
        }
    }
}

/// Fires a trigger when a request is sent.
struct OnSend: HTTPHook {
    let trigger: Trigger

    init(_ trigger: Trigger) { self.trigger = trigger }

    func willSend(_ context: HookContext) { trigger.fire() }
}

/// A response for pure tests of decoding helpers (no I/O).
func makeResponse(_ body: String, status: Int = 200, contentType: String = "application/json") -> HTTPResponse {
    HTTPResponse(statusCode: status, headers: ["Content-Type": contentType], body: Data(body.utf8),
                 url: URL(fileURLWithPath: "/test"))
}
