import AFStyle
import Foundation
import Testing

/// The streaming data task: the did-receive-data block per chunk, then success or failure once,
/// on the completion queue, with the status validated before any chunk.
@Suite("Streaming data task", .timeLimit(.minutes(2)))
struct StreamingDataTaskTests {
    @Test func chunksArriveWithTheirTaskThenSuccessOnce() async throws {
        let manager = try makeManager()
        let chunks = Recorder<Int>()
        let ends = Recorder<Result<HTTPResponse, NetworkError>>()
        let tasks = Recorder<SessionTask>()
        let task = manager.streamingDataTask("stream/drip", parameters: ["chunks": "12", "size": "700", "interval-ms": "0"],
                                             bufferSize: 1024, didReceiveData: { task, chunk in
            tasks.append(task)
            chunks.append(chunk.count)
        }, success: { _, head in ends.append(.success(head)) }, failure: { _, error in ends.append(.failure(error)) })
        let results = await ends.wait(for: 1)
        #expect(try results.first?.get().statusCode == 200)
        #expect(chunks.values.reduce(0, +) == 12 * 700)
        #expect(tasks.values.allSatisfy { $0 === task })
        #expect(ends.values.count == 1)
    }

    @Test func aRefusedStatusFailsWithoutChunks() async throws {
        let manager = try makeManager()
        let chunks = Recorder<Int>()
        let ends = Recorder<NetworkError>()
        manager.streamingDataTask("user/999", didReceiveData: { _, chunk in chunks.append(chunk.count) },
                                  failure: { _, error in ends.append(error) })
        let errors = await ends.wait(for: 1)
        #expect(errors.first?.kind == .unacceptableStatus(404))
        #expect(errors.first?.response?.body.isEmpty == false)
        #expect(chunks.values.isEmpty)
    }

    @Test func cancellingEndsTheTaskWithCancelled() async throws {
        let manager = try makeManager()
        let ends = Recorder<NetworkError>()
        let first = Trigger()
        let task = manager.streamingDataTask("stream/endless", didReceiveData: { _, _ in first.fire() },
                                             failure: { _, error in ends.append(error) })
        first.set { task?.cancel() }
        let errors = await ends.wait(for: 1)
        #expect(errors.first?.kind == .cancelled)
    }
}
