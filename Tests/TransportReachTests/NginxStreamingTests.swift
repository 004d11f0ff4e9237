import Chain
import Foundation
import Testing

/// Streaming against Debian's nginx: a body paused and resumed many times, in clear text and
/// over TLS, server-sent events from a server we did not write, and a paused stream beside
/// other requests to the same host.
@Suite("Transport reach: streaming from nginx", .timeLimit(.minutes(2)))
struct NginxStreamingTests {
    private func tls(_ nginx: NginxPeer) -> TLSOptions { TLSOptions(caFile: nginx.caFile) }

    @Test(arguments: [false, true])
    func aBodyPausedEveryFewKilobytesArrivesWhole(overTLS: Bool) async throws {
        let nginx = try await Peers.nginx
        let url = overTLS ? nginx.tlsURL("/stream/big?\(unique())") : nginx.httpURL("/stream/big?\(unique())")
        let chunks = Request.url(url.absoluteString).tls(tls(nginx)).chunks(bufferSize: 4096)
        let head = try await chunks.head
        // Streams go over HTTP/1.1 (see `configureTLS`), also where nginx offers h2.
        #expect(head.httpVersion == .http1_1)
        var body = Data()
        for try await chunk in chunks { body.append(chunk) }
        #expect(body.count == NginxPeer.streamBody.count)
        #expect(body == NginxPeer.streamBody)
    }

    @Test(arguments: [false, true])
    func eventsFromNginxArriveInOrder(overTLS: Bool) async throws {
        let nginx = try await Peers.nginx
        let url = overTLS ? nginx.tlsURL("/stream/events?\(unique())") : nginx.httpURL("/stream/events?\(unique())")
        var ids: [String] = []
        var data: Set<String> = []
        for try await event in Request.url(url.absoluteString).tls(tls(nginx)).events(reconnect: .never, bufferSize: 2048) {
            ids.append(event.id ?? "")
            data.insert(event.data)
            #expect(event.event == "tick")
        }
        #expect(ids == (1...NginxPeer.streamEventCount).map(String.init))
        #expect(data.count == NginxPeer.streamEventCount)
    }

    /// A stream paused by its consumer holds its own HTTP/1.1 connection only: other requests to
    /// the host go on meanwhile, over HTTP/2.
    @Test func aPausedStreamDoesNotHoldUpItsConnection() async throws {
        let nginx = try await Peers.nginx
        let client = HTTPClient()
        let configuration = ChainConfiguration(client: client)
        let chunks = configuration.url(nginx.tlsURL("/stream/big?\(unique())").absoluteString).tls(tls(nginx))
            .chunks(bufferSize: 4096)
        var iterator = chunks.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.isEmpty == false)
        // The stream is now paused (4 KiB of buffer, 8 MiB to come); ten GETs pass it.
        for index in 0..<10 {
            let hello = await configuration.url(nginx.tlsURL("/hello?\(unique())-\(index)").absoluteString)
                .tls(tls(nginx)).delivery(Hello.self)
            #expect(hello.value?.hello == "world")
            #expect(hello.response?.httpVersion == .http2)
        }
        var total = first?.count ?? 0
        while let chunk = try await iterator.next() { total += chunk.count }
        #expect(total == NginxPeer.streamBody.count)
    }
}
