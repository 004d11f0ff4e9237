// Quickstart: the first sample. Starts the bundled sample server on a free loopback port,
// logs in, fetches a user, and shows a typed error — using the engine directly.
import Foundation
import HTTPCore
import SampleServer

@main
struct Quickstart {
    static func main() async {
        do {
            try await run()
        } catch {
            FileHandle.standardError.write(Data("quickstart failed: \(error)\n".utf8))
            exit(1)
        }
    }

    static func run() async throws {
        let server = try SampleServer(port: 0)
        defer { server.stop() }
        print("Sample server on \(server.baseURL.absoluteString)")
        let client = HTTPClient.shared

        // POST a form, as AFNetworking would for `POST account/login`.
        var login = HTTPRequest(url: server.baseURL.appendingPathComponent("account/login"), method: .post)
        try ParameterEncoding.form.encode(["username": .string("wiki"), "password": .string("secret")], into: &login)
        let loggedIn = try await client.response(for: login)
        print("POST /account/login → \(loggedIn.statusCode): \(String(decoding: loggedIn.body, as: UTF8.self))")
        guard loggedIn.statusCode == 200 else { throw SampleFailure("login should succeed") }

        // GET a user and decode it.
        struct User: Decodable { let id: String; let name: String }
        let userResponse = try await client.response(for: HTTPRequest(url: server.baseURL.appendingPathComponent("user/101")))
        let user = try JSONDecoder().decode(User.self, from: userResponse.body)
        print("GET /user/101 → \(user.name) (id \(user.id)) in \(String(format: "%.1f", userResponse.timings.total * 1000)) ms")

        // A wrong password: the server's error body arrives with its 401.
        var wrong = HTTPRequest(url: server.baseURL.appendingPathComponent("account/login"), method: .post)
        try ParameterEncoding.form.encode(["username": .string("wiki"), "password": .string("nope")], into: &wrong)
        let refused = try await client.response(for: wrong)
        print("POST /account/login (wrong password) → \(refused.statusCode): \(String(decoding: refused.body, as: UTF8.self))")
        guard refused.statusCode == 401 else { throw SampleFailure("a wrong password should be refused") }

        // Transport failures are typed errors, never crashes.
        do {
            var slow = HTTPRequest(url: server.baseURL.appendingPathComponent("delay/3"))
            slow.timeouts.total = 0.3
            _ = try await client.response(for: slow)
            throw SampleFailure("the slow request should time out")
        } catch let error as NetworkError where error.kind == .timedOut {
            print("GET /delay/3 with a 0.3 s timeout → \(error.kind): \(error)")
        }
        print("Quickstart done.")
    }
}

struct SampleFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
