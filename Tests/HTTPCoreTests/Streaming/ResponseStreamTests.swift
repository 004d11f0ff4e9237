import Foundation
import HTTPCore
import Synchronization
import Testing

/// The stream between the transport and a consumer on its own: the bound, the pause and the
/// resume, the order of chunks and end, the head. No I/O: the test plays the loop thread.
@Suite("Response stream")
struct ResponseStreamTests {
    static let head = HTTPResponse(statusCode: 200, headers: HTTPHeaders(), body: Data(), url: URL(fileURLWithPath: "/s"),
                                   httpVersion: .http1_1)

    /// Counts the resume requests the stream makes.
    final class Resumes: Sendable {
        let count = Atomic<Int>(0)
        var closure: @Sendable () -> Void { { self.count.add(1, ordering: .relaxed) } }
        var value: Int { count.load(ordering: .relaxed) }
    }

    private func offer(_ stream: ResponseStream, _ bytes: Int) -> Bool {
        Data(repeating: 7, count: bytes).withUnsafeBytes { stream.offer($0) }
    }

    @Test func aFullBufferRefusesTheNextChunkAndResumesAtHalf() async {
        let stream = ResponseStream(bufferLimit: 1000, acceptance: .successCodes)
        let resumes = Resumes()
        stream.open(Self.head, resume: resumes.closure)
        #expect(offer(stream, 600))
        #expect(offer(stream, 600), "below the limit a chunk is taken, even one that crosses it")
        #expect(!offer(stream, 600), "at the limit the chunk is refused: libcurl keeps it and pauses")
        #expect(resumes.value == 0)
        guard case .chunk(let first) = await stream.next() else { Issue.record("no chunk"); return }
        #expect(first.count == 600)
        #expect(resumes.value == 0, "600 bytes still wait: above half the limit")
        guard case .chunk = await stream.next() else { Issue.record("no chunk"); return }
        #expect(resumes.value == 1, "drained: the transfer is resumed once")
        #expect(offer(stream, 600))
    }

    @Test func noResumeWithoutAPause() async {
        let stream = ResponseStream(bufferLimit: 1000, acceptance: .successCodes)
        let resumes = Resumes()
        stream.open(Self.head, resume: resumes.closure)
        #expect(offer(stream, 10))
        _ = await stream.next()
        #expect(resumes.value == 0)
    }

    @Test func everyChunkComesBeforeTheEnd() async {
        let stream = ResponseStream(bufferLimit: 1 << 20, acceptance: .successCodes)
        stream.open(Self.head, resume: {})
        for size in 1...5 { #expect(offer(stream, size)) }
        stream.finish(.success(Self.head))
        var sizes: [Int] = []
        while case .chunk(let chunk) = await stream.next() { sizes.append(chunk.count) }
        #expect(sizes == [1, 2, 3, 4, 5])
        guard case .end(.success(let head)) = await stream.next() else { Issue.record("no end"); return }
        #expect(head.statusCode == 200)
    }

    @Test func aWaitingConsumerGetsTheNextChunkDirectly() async {
        let stream = ResponseStream(bufferLimit: 100, acceptance: .successCodes)
        stream.open(Self.head, resume: {})
        async let element = stream.next()
        // The consumer may or may not be waiting yet; either way it gets the chunk.
        #expect(offer(stream, 42))
        guard case .chunk(let chunk) = await element else { Issue.record("no chunk"); return }
        #expect(chunk.count == 42)
    }

    @Test func aBodyThatWasNotStreamedBecomesTheOneChunk() async throws {
        let stream = ResponseStream(bufferLimit: 100, acceptance: .successCodes)
        var stubbed = Self.head
        stubbed.body = Data("stubbed".utf8)
        stream.finish(.success(stubbed))
        guard case .chunk(let chunk) = await stream.next() else { Issue.record("no chunk"); return }
        #expect(chunk == Data("stubbed".utf8))
        guard case .end(.success(let head)) = await stream.next() else { Issue.record("no end"); return }
        #expect(head.body.isEmpty)
        #expect(try await stream.head().get().body.isEmpty)
    }

    @Test func theHeadWaitsForOpenOrTheFailure() async {
        let stream = ResponseStream(bufferLimit: 100, acceptance: .successCodes)
        async let head = stream.head()
        stream.finish(.failure(NetworkError(.cannotConnect, "refused")))
        #expect(await head.failure?.kind == .cannotConnect)
        #expect(!stream.hasStarted)
    }

    @Test func chunksAfterTheEndAreDropped() async {
        let stream = ResponseStream(bufferLimit: 100, acceptance: .successCodes)
        stream.open(Self.head, resume: {})
        stream.finish(.failure(NetworkError(.cancelled, "cancelled")))
        #expect(offer(stream, 10))
        guard case .end(.failure(let error)) = await stream.next() else { Issue.record("no end"); return }
        #expect(error.kind == .cancelled)
    }

    @Test func aBatchTakesEveryWaitingChunkAndResumes() async {
        let stream = ResponseStream(bufferLimit: 100, acceptance: .successCodes)
        let resumes = Resumes()
        stream.open(Self.head, resume: resumes.closure)
        #expect(offer(stream, 60))
        #expect(offer(stream, 60))
        #expect(!offer(stream, 60))
        let batch = await stream.nextBatch()
        #expect(batch.chunks.map(\.count) == [60, 60])
        #expect(batch.end == nil)
        #expect(resumes.value == 0, "a batch counts until it was handed over")
        #expect(!offer(stream, 60), "the batch being delivered still fills the buffer")
        stream.batchDelivered(batch.chunks)
        #expect(resumes.value == 1)
    }

    @Test func aSecondReaderAtOnceFailsInsteadOfHanging() async {
        let stream = ResponseStream(bufferLimit: 100, acceptance: .successCodes)
        stream.open(Self.head, resume: {})
        async let first = stream.next()
        async let second = stream.next()
        // One of them waits; the other fails at once. Then the waiting one gets the end.
        stream.finish(.failure(NetworkError(.cancelled, "cancelled")))
        let kinds = [await first, await second].compactMap { element -> NetworkError.Kind? in
            if case .end(.failure(let error)) = element { return error.kind }
            return nil
        }
        #expect(kinds.count == 2)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
