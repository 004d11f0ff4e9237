import Chain
import Foundation
import Testing

/// Malformed server-sent events from the hostile peer (`scenarios_sse.py`), close-delimited and
/// chunked: what the WHATWG rules make of them, and that nothing crashes or buffers without bound.
@Suite("Hostile event streams", .timeLimit(.minutes(2)))
struct HostileEventStreamTests {
    static let framings = ["close", "chunked"]

    private func events(_ peer: HostilePeer, _ scenario: String, framing: String,
                        reconnect: EventReconnection = .never) -> ServerSentEvents {
        let configuration = chainConfiguration(queue: DispatchQueue(label: "hostile.sse"))
        return configuration.url(peer.urlString("/\(scenario)?framing=\(framing)")).events(reconnect: reconnect)
    }

    private func collect(_ events: ServerSentEvents) async -> (events: [ServerSentEvent], error: NetworkError?) {
        var collected: [ServerSentEvent] = []
        do {
            for try await event in events { collected.append(event) }
            return (collected, nil)
        } catch {
            return (collected, error)
        }
    }

    @Test(arguments: framings)
    func anEventWithoutItsBlankLineIsNotDispatched(framing: String) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let (events, error) = await collect(events(peer, "sse-no-final-newline", framing: framing))
        #expect(error == nil)
        #expect(events.map(\.data) == ["one", "two"])
        #expect(events.map(\.id) == ["1", "2"])
    }

    @Test(arguments: framings)
    func aLineOverTheLimitFailsInsteadOfGrowing(framing: String) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let (events, error) = await collect(events(peer, "sse-huge-line", framing: framing))
        #expect(events.isEmpty)
        #expect(error?.kind == .responseTooLarge)
    }

    @Test(arguments: framings)
    func anIdWithNULIsIgnoredAndNULInDataIsKept(framing: String) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let (events, error) = await collect(events(peer, "sse-nul", framing: framing))
        #expect(error == nil)
        #expect(events.map(\.data) == ["bad id", "nul\u{0}in\u{0}data", "seven"])
        #expect(events.map(\.id) == [nil, nil, "7"])
    }

    @Test(arguments: framings)
    func bareCRLineEndsSplitAcrossWrites(framing: String) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let (events, error) = await collect(events(peer, "sse-cr-only", framing: framing))
        #expect(error == nil)
        #expect(events.map(\.data) == ["one", "two"])
        #expect(events.map(\.id) == ["1", "2"])
    }

    @Test(arguments: framings)
    func aByteOrderMarkSplitAcrossWritesIsSkipped(framing: String) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let (events, error) = await collect(events(peer, "sse-bom", framing: framing))
        #expect(error == nil)
        #expect(events.map(\.data) == ["first", "second"])
    }

    @Test(arguments: framings)
    func invalidUTF8BecomesReplacementCharacters(framing: String) async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        let (events, error) = await collect(events(peer, "sse-invalid-utf8", framing: framing))
        #expect(error == nil)
        #expect(events.map(\.data) == ["ok", "bad \u{FFFD}\u{FFFD} end", "after"])
    }

    /// After the peer closes, the stream connects again and sends the last id it saw; the
    /// reconnection's request is what the peer recorded.
    @Test func aReconnectionSendsLastEventID() async throws {
        let peer = try await HostilePeer.start()
        defer { peer.stop() }
        var received: [ServerSentEvent] = []
        let stream = events(peer, "sse-no-final-newline", framing: "close",
                            reconnect: EventReconnection(initialDelay: 0.01))
        for try await event in stream {
            received.append(event)
            if received.count == 4 { break }
        }
        #expect(received.map(\.data) == ["one", "two", "one", "two"])
        let requests = peer.recordedRequests(pathPrefix: "/sse-no-final-newline")
        #expect(requests.count >= 2)
        #expect(requests.first?.header("Last-Event-ID") == nil)
        #expect(requests.dropFirst().first?.header("Last-Event-ID") == "2")
        #expect(requests.first?.header("Accept") == "text/event-stream")
    }
}
