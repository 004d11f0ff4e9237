import ChainTesting
import Foundation
import Testing

/// APIs whose closures throw `NetworkError` also take plain throwing closures, no
/// `throws(NetworkError)` annotation: a foreign error becomes a typed one, the original kept.
@Suite("Plain throwing closures")
struct PlainClosureTests {
    struct Unreadable: Error, Equatable { let reason: String }

    static func response(_ text: String) throws -> HTTPResponse {
        HTTPResponse(statusCode: 200, body: Data(text.utf8), url: try #require(URL(string: "http://127.0.0.1/")))
    }

    @Test("a serializer from a plain closure: success, a foreign error, a DecodingError with its path")
    func serializer() throws {
        let words = ResponseSerializer { response, _ in
            guard let text = String(data: response.body, encoding: .utf8), !text.isEmpty else { throw Unreadable(reason: "empty") }
            return text.split(separator: " ").map(String.init)
        }
        #expect(try words.serialize(try Self.response("a b"), nil) == ["a", "b"])
        let failure = try #require(throwing(NetworkError.self) { _ = try words.serialize(try Self.response(""), nil) })
        #expect(failure.kind == .decodingFailed)
        #expect(failure.underlyingError as? Unreadable == Unreadable(reason: "empty"))

        struct Model: Decodable { let id: Int }
        let decoding = ResponseSerializer { response, _ in try JSONDecoder().decode(Model.self, from: response.body).id }
        let decodingFailure = try #require(throwing(NetworkError.self) {
            _ = try decoding.serialize(try Self.response(#"{"id":"x"}"#), nil)
        })
        #expect(decodingFailure.kind == .decodingFailed && decodingFailure.codingPath == "id")

        let typed = ResponseSerializer { response, _ throws(NetworkError) in try response.text() }
        #expect(try typed.serialize(try Self.response("t"), nil) == "t")
    }

    @Test("a plan from plain closures runs through Chain; a foreign validation error is .invalidResponse")
    func planThroughChain() async throws {
        let server = try MockServer()
        server.enqueue(.text("banned"))
        server.enqueue(.text("fine"))
        let plan = ResponsePlan<String>(validate: { response in
            if response.body == Data("banned".utf8) { throw Unreadable(reason: "banned") }
        }, decode: { response in
            guard let text = String(data: response.body, encoding: .utf8) else { throw Unreadable(reason: "utf8") }
            return text.uppercased()
        })
        let serializer = ResponseSerializer { response, _ in try plan.validate(response); return try plan.decode(response) }
        let rejected = await withCheckedContinuation { continuation in
            Request.url(server.url("/1")).responseDelivery(using: serializer) { continuation.resume(returning: $0) }
        }
        #expect(rejected.error?.kind == .invalidResponse)
        #expect(rejected.error?.underlyingError as? Unreadable == Unreadable(reason: "banned"))
        let accepted = await withCheckedContinuation { continuation in
            Request.url(server.url("/2")).responseDelivery(using: serializer) { continuation.resume(returning: $0) }
        }
        #expect(accepted.value == "FINE")
    }

    @Test("a validation's content check may be a plain closure")
    func contentCheck() throws {
        var validation = ResponseValidation()
        validation.contentCheck = { response in
            if response.body.isEmpty { throw Unreadable(reason: "no body") }
        }
        try validation.validate(try Self.response("x"))
        let error = try #require(throwing(NetworkError.self) { try validation.validate(try Self.response("")) })
        #expect(error.kind == .invalidResponse)
        #expect(error.message.hasPrefix("the response was rejected"))
        #expect(error.response?.statusCode == 200)
    }
}
