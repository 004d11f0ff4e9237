import AFStyle
import Foundation
import Synchronization

/// Streaming: a language-model-style token stream printed as it arrives, an event stream that
/// loses its connection and resumes with `Last-Event-ID`, newline-delimited JSON, the same
/// stream through HTTPSessionManager, and an upload produced while it is sent.
public enum StreamingSample {
    struct Token: Decodable, Sendable {
        let token: String
    }

    struct Item: Decodable, Sendable {
        let index: Int
        let name: String
    }

    struct UploadReceipt: Decodable, Sendable {
        let bytes: Int
        let chunked: Bool
    }

    public static func run(baseURL: URL, output: SampleOutput) async throws {
        let configuration = ChainConfiguration(baseURL: baseURL)

        // 1) Server-sent events: one token per event, printed the moment it arrives.
        let start = ContinuousClock.now
        var text = ""
        let tokens = configuration.url("stream/tokens?interval-ms=40").events(reconnect: .never)
        output.say("1) \(try await tokens.head.headers["Content-Type"] ?? "?") — tokens as they arrive:")
        for try await event in tokens {
            if event.data == "[DONE]" { break }
            let token = try JSONDecoder().decode(Token.self, from: Data(event.data.utf8))
            text += token.token
            let elapsed = (ContinuousClock.now - start).components
            output.say("   +\(elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000) ms  \(token.token)")
        }
        output.say("   assembled: \(text.trimmingCharacters(in: .whitespaces))")
        try expect(text.hasPrefix("Chain streams tokens"), "the token stream")

        // 2) The connection drops after every 2 events; the stream reconnects with Last-Event-ID
        //    after the server's `retry` (20 ms) and ends when the server answers 204.
        let reconnects = ReconnectCounter()
        var ids: [String] = []
        let feed = configuration.url("stream/sse?count=6&drop-after=2&retry=20")
            .hook(reconnects)
        for try await event in feed.events() { ids.append(event.id ?? "-") }
        let reconnections = reconnects.count.withLock { $0 }
        output.say("2) a dropping feed: events \(ids.joined(separator: ", ")) over \(reconnections) reconnections, then 204")
        try expect(ids == ["1", "2", "3", "4", "5", "6"], "six events without a gap or a repeat")

        // 3) Newline-delimited JSON, decoded line by line with FastJSON.
        var names: [String] = []
        for try await item in configuration.url("stream/ndjson?count=3").jsonLines(Item.self) { names.append(item.name) }
        output.say("3) NDJSON: \(names.joined(separator: ", "))")
        try expect(names.count == 3, "three records")

        // 4) The AFNetworking way: a did-receive-data block per chunk, then success once.
        let manager = HTTPSessionManager(baseURL: baseURL)
        let received = Mutex((chunks: 0, bytes: 0))
        let status = try await AFStyleSample.call { done in
            manager.streamingDataTask("stream/drip", parameters: ["chunks": "5", "size": "2048", "interval-ms": "10"],
                                      didReceiveData: { _, chunk in received.withLock { $0.chunks += 1; $0.bytes += chunk.count } },
                                      success: { _, head in done(.success(head.statusCode)) },
                                      failure: { _, error in done(.failure(error)) })
        }
        let counts = received.withLock { $0 }
        output.say("4) HTTPSessionManager streamingDataTask: HTTP \(status), \(counts.bytes) bytes in \(counts.chunks) chunks")
        try expect(counts.bytes == 5 * 2048, "every byte of the drip")

        // 5) An upload produced while it is sent: chunked, in bounded memory.
        let parts = AsyncStream<Data> { continuation in
            for index in 0..<64 { continuation.yield(Data(repeating: UInt8(index), count: 16 * 1024)) }
            continuation.finish()
        }
        let receipt = try await configuration.url("stream/upload").method(.post)
            .body(stream: parts, length: nil, contentType: "application/octet-stream").value(UploadReceipt.self)
        output.say("5) a streamed upload: the server read \(receipt.bytes) bytes, chunked: \(receipt.chunked)")
        try expect(receipt.bytes == 64 * 16 * 1024 && receipt.chunked, "a chunked upload of 1 MiB")
    }

    /// Counts the stream's reconnections, as any hook can.
    final class ReconnectCounter: HTTPHook {
        let count = Mutex(0)
        func willReconnect(_ context: HookContext, reconnection: StreamReconnection) {
            count.withLock { $0 += 1 }
        }
    }
}
