import Chain
import Foundation
import Testing

/// Moya's `stubClosure`: the configuration decides per target whether it answers from its
/// sample data; a request's own choice wins, and other target types keep what was there.
@Suite("Target stub closure")
struct TargetStubClosureTests {
    enum API: TargetType, Sendable {
        case user, users
        var baseURL: URL { URL(string: "http://127.0.0.1:9/")! }
        var path: String { self == .user ? "user/1" : "users" }
        var sampleData: Data { Data(self == .user ? #"{"name":"sample"}"#.utf8 : #"[]"#.utf8) }
    }

    enum Other: TargetType, Sendable {
        case thing
        var baseURL: URL { URL(string: "http://127.0.0.1:9/")! }
        var path: String { "thing" }
        var sampleData: Data { Data(#"{"name":"other"}"#.utf8) }
    }

    struct Named: Decodable, Sendable { let name: String }

    private func configuration() -> ChainConfiguration {
        var configuration = ChainConfiguration(client: HTTPClient(configuration: .init()), timeouts: Timeouts(connect: 2))
        configuration.cookieJar = nil
        configuration.proxy = .none
        configuration.stubTargets(API.self) { target in target == .user ? .immediate : .never }
        return configuration
    }

    @Test("the closure stubs one case and sends the other")
    func perTarget() async throws {
        let api = configuration()
        #expect(try await api.target(API.user).value(Named.self).name == "sample")
        // Port 9 on loopback (discard) refuses: the unstubbed case really went to the network.
        let error = await #expect(throws: NetworkError.self) { try await api.target(API.users).data() }
        #expect(error?.kind == .cannotConnect)
    }

    @Test("the closure sees targets sent from generic code and through an existential")
    func genericContexts() async throws {
        let api = configuration()
        func send<T: TargetType>(_ target: T) -> Request { api.target(target) }
        #expect(try await send(API.user).value(Named.self).name == "sample")
        let existential: any TargetType = API.user
        #expect(try await api.target(existential).value(Named.self).name == "sample")
        #expect(try await Request.target(existential).configuration(api).value(Named.self).name == "sample")
    }

    @Test("a request's own stub behavior wins; other target types fall back to stubBehavior")
    func precedence() async throws {
        var api = configuration()
        let refused = await #expect(throws: NetworkError.self) { try await api.target(API.user).stub(.never).data() }
        #expect(refused?.kind == .cannotConnect)
        api.stubBehavior = .immediate
        #expect(try await api.target(Other.thing).value(Named.self).name == "other")
        api.stubTargets(Other.self) { _ in .delayed(seconds: 0.01) }
        #expect(try await api.target(Other.thing).value(Named.self).name == "other")
        #expect(try await api.target(API.user).value(Named.self).name == "sample")
    }
}
