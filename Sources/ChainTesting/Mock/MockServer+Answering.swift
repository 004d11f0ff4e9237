import Foundation
import HTTPCore
import SampleServer
import Synchronization

/// What a ``MockServer``'s connection threads share with the test: the answers behind one
/// lock, and the log of requests.
final class MockServerCore: Sendable {
    struct Answers {
        var queue: [MockResponse] = []
        var dispatcher: (@Sendable (RecordedRequest) throws -> MockResponse)?
    }

    let answers = Mutex(Answers())
    let log = RequestLog()
}

extension MockServer {
    /// Reads and records one request, then answers it from the dispatcher or the queue, on
    /// the connection's thread.
    static func answer(_ context: RouteContext, core: MockServerCore) throws -> Response {
        let head = context.head
        let body = Data(try context.body.readAll(limit: bodyLimit))
        var headers = HTTPHeaders()
        for field in head.headers { headers.add(name: field.name, value: field.value) }
        var recorded: RecordedRequest?
        core.log.append { sequence in
            let request = RecordedRequest(method: HTTPMethod(rawValue: head.method), target: head.target, headers: headers,
                                          body: body, sequenceNumber: sequence, connectionNumber: context.connection.serial,
                                          indexOnConnection: context.connection.requestsBefore,
                                          httpVersion: "HTTP/1.\(head.minorVersion)")
            recorded = request
            return request
        }
        guard let request = recorded else { return unanswered("the request could not be recorded") }
        let (dispatcher, queued) = core.answers.withLock { state -> ((@Sendable (RecordedRequest) throws -> MockResponse)?, MockResponse?) in
            if let dispatcher = state.dispatcher { return (dispatcher, nil) }
            return (nil, state.queue.isEmpty ? nil : state.queue.removeFirst())
        }
        let mock: MockResponse
        if let dispatcher {
            do {
                mock = try dispatcher(request)
            } catch {
                return unanswered("the dispatcher threw for \(head.method) \(head.target): \(error)")
            }
        } else if let queued {
            mock = queued
        } else {
            return unanswered("no response enqueued for \(head.method) \(head.target)")
        }
        return response(for: mock, method: head.method, server: context.server)
    }

    /// The `500` of a request nothing answered, naming why.
    private static func unanswered(_ reason: String) -> Response {
        Response(status: 500, headers: [("Content-Type", "text/plain; charset=utf-8"), ("X-MockServer", "unanswered")],
                 body: .bytes(Array("MockServer: \(reason)\n".utf8)))
    }

    /// The sample server's response that sends `mock` with its options.
    private static func response(for mock: MockResponse, method: String, server: ServerContext) -> Response {
        if let invalidity = mock.invalidity { return unanswered("the MockResponse cannot be sent: \(invalidity)") }
        if mock.delaySeconds > 0, !server.wait(seconds: mock.delaySeconds) {
            return Response(status: 503, body: .raw { _, _ in })
        }
        let framing: Set<String> = ["content-length", "transfer-encoding", "connection"]
        let fields = mock.headers.fields.filter { !framing.contains($0.name.lowercased()) }.map { ($0.name, $0.value) }
        switch mock.fault {
        case .disconnectAfterRequest?:
            return Response(status: mock.status, body: .raw { _, _ in })
        case .noResponse?:
            return Response(status: mock.status, body: .raw { socket, server in server.waitForPeerClose(socket.fd) })
        case .disconnectDuringBody?:
            let body = [UInt8](mock.truncatableBody)
            return Response(status: mock.status, body: .raw { socket, _ in
                var head = "HTTP/1.1 \(mock.status) Mock\r\n"
                for (name, value) in fields { head += "\(name): \(value)\r\n" }
                head += "Content-Length: \(body.count)\r\n\r\n"
                try socket.sendAll(Array(head.utf8) + body.prefix(body.count / 2))
            })
        default:
            break
        }
        // The connection sends no body for HEAD (declaring the GET's length) or for the
        // statuses that forbid one.
        let body = [UInt8](mock.body)
        guard let rate = mock.bytesPerSecond, !body.isEmpty, mock.sendsBody(toMethod: method) else {
            return Response(status: mock.status, headers: fields, body: body.isEmpty ? .empty : .bytes(body))
        }
        let piece = max(1, rate / 10)
        return Response(status: mock.status, headers: fields, body: .stream(length: body.count) { writer in
            var offset = 0
            while offset < body.count {
                let end = min(offset + piece, body.count)
                try writer.write(Array(body[offset..<end]))
                // Each piece takes its share of a second before the next one goes.
                guard end < body.count, writer.wait(seconds: Double(end - offset) / Double(rate)) else { return }
                offset = end
            }
        })
    }
}
