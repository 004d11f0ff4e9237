import AFStyle
import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

// The idle timeout means what its documentation says — no byte received or sent for that
// long — and every number a caller gives it (or the other timeouts) is taken safely.
@Suite("Idle timeout", .timeLimit(.minutes(1)))
struct IdleTimeoutTests {
    @Test func aStreamOfOneByteEveryOneAndAHalfSecondsOutlivesAThreeSecondIdleTimeout() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        var request = HTTPRequest(url: peer.url("/conn-dribble/x?count=4&interval=1.5"))
        request.timeouts.idle = 3
        let result = await HTTPClient().result(request)
        #expect(result.success?.body == Data("....".utf8), "\(String(describing: result.failure))")
    }

    @Test(arguments: [1.0, 1.5])
    func aStallLongerThanTheIdleTimeoutFailsNamingIt(idle: TimeInterval) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        var request = HTTPRequest(url: peer.url("/conn-stall/x?seconds=20"))
        request.timeouts.idle = idle
        let result = await HTTPClient().result(request)
        let error = try #require(result.failure)
        #expect(error.kind == .timedOut)
        #expect(error.message.contains("idle timeout of \(idle == 1 ? "1" : "1.5") s"), "\(error.message)")
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        var request = HTTPRequest(url: peer.url("/conn-hold/x?id=\(unique())"))
        request.timeouts.idle = 1
        let result = await HTTPClient().result(request)
        #expect(result.failure?.kind == .timedOut)
    }

    /// `.infinity`, and values too large for libcurl, mean no limit (an infinite idle timeout
    /// trapped on the loop thread).
    @Test func infiniteAndHugeTimeoutsMeanNoLimit() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        for timeouts in [Timeouts(connect: .infinity, idle: .infinity, total: .infinity),
                         Timeouts(connect: 1e300, idle: 1e12, total: Double.greatestFiniteMagnitude)] {
            var request = HTTPRequest(url: peer.url("/conn-dribble/x?count=2&interval=0.05"))
            request.timeouts = timeouts
            let result = await HTTPClient().result(request)
            #expect(result.success?.body.count == 2, "\(timeouts): \(String(describing: result.failure))")
        }
    }

    @Test func anAFStyleTimeoutIntervalOfInfinityMeansNoLimit() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let manager = makeManager(client: HTTPClient(), queue: DispatchQueue(label: "idle.afstyle"))
        manager.requestSerializer.timeoutInterval = .infinity
        let callbacks = AFCallbacks()
        manager.GET(peer.urlString("/conn-dribble/x?count=2&interval=0.05"), success: callbacks.success,
                    failure: callbacks.failure)
        let outcomes = await callbacks.log.wait(for: 1)
        #expect(outcomes.first?.bytes == 2, "\(outcomes)")
    }

    @Test(arguments: [-1, -Double.infinity, Double.nan])
    func aNegativeOrNaNTimeoutIsAnInvalidRequest(value: Double) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        for timeouts in [Timeouts(connect: value), Timeouts(idle: value), Timeouts(total: value)] {
            var request = HTTPRequest(url: peer.url("/ok/x"))
            request.timeouts = timeouts
            let result = await HTTPClient().result(request)
            #expect(result.failure?.kind == .invalidRequest, "\(timeouts)")
        }
        #expect(peer.recordedRequests(pathPrefix: "/ok").isEmpty)
    }
}
