import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

// The hostile peer itself: it starts, answers its well-behaved baseline, and logs what it read.
// Each misbehaviour's own test sits with the code it proves (see the `scenarios_*.py` files).
@Suite("Hostile peer", .timeLimit(.minutes(1)))
struct HostilePeerTests {
    @Test func theBaselineScenarioAnswersAndIsLogged() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let client = HTTPClient()
        let result = await client.result(HTTPRequest(url: peer.url("/ok/first")))
        #expect(result.success?.statusCode == 200)
        #expect((try? result.success?.text()) == "ok")
        let recorded = peer.recordedRequests(pathPrefix: "/ok")
        #expect(recorded.map(\.path) == ["/ok/first"])
        #expect(recorded.first?.header("User-Agent")?.hasPrefix("Chain/") == true)
    }
}
