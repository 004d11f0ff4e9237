import Foundation
import HTTPCore
import Synchronization
import Testing

/// A stream body on its own: the producer's bound, the transport's pause and resume, the
/// announced length, and that it is read once. The test plays the loop thread.
@Suite("Body stream")
struct BodyStreamTests {
    /// Resumes a waiting test each time the stream asks for the transport to go on.
    final class Resumes: Sendable {
        private let state = Mutex<(count: Int, waiter: CheckedContinuation<Void, Never>?)>((0, nil))
        var closure: @Sendable () -> Void {
            { [self] in state.withLock { state in state.count += 1; return state.waiter.take() }?.resume() }
        }

        /// Waits until the stream asked at least `count` times in all.
        func wait(untilCount count: Int) async {
            await withCheckedContinuation { continuation in
                let isThere = state.withLock { state in
                    if state.count >= count { return true }
                    state.waiter = continuation
                    return false
                }
                if isThere { continuation.resume() }
            }
        }
    }

    /// Reads until the end, waiting for each resume after a pause.
    private func readAll(_ body: BodyStream, resumes: Resumes) async -> Result<Data, NetworkError> {
        var collected = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var pauses = 0
        while true {
            let result = buffer.withUnsafeMutableBytes { body.read(into: $0) }
            switch result {
            case .bytes(let count): collected.append(contentsOf: buffer[0..<count])
            case .end: return .success(collected)
            case .failed(let error): return .failure(error)
            case .pause:
                pauses += 1
                await resumes.wait(untilCount: pauses)
            }
        }
    }

    private static func sequence(_ chunks: [Data]) -> AsyncStream<Data> {
        AsyncStream { continuation in
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
        }
    }

    @Test func everyChunkArrivesInOrder() async throws {
        let chunks = (0..<100).map { Data(repeating: UInt8($0), count: 10_000) }
        let body = BodyStream(Self.sequence(chunks), length: nil)
        let resumes = Resumes()
        try body.start(resume: resumes.closure)
        let result = await readAll(body, resumes: resumes)
        #expect(try result.get() == chunks.reduce(Data(), +))
    }

    @Test func aSecondStartFails() throws {
        let body = BodyStream(Self.sequence([]), length: nil)
        try body.start(resume: {})
        #expect(body.hasStarted)
        #expect(throws: NetworkError.self) { try body.start(resume: {}) }
    }

    @Test func aBodyLongerThanAnnouncedFails() async throws {
        let body = BodyStream(Self.sequence([Data(count: 60), Data(count: 60)]), length: 100)
        let resumes = Resumes()
        try body.start(resume: resumes.closure)
        let result = await readAll(body, resumes: resumes)
        guard case .failure(let error) = result else { Issue.record("the long body was read"); return }
        #expect(error.kind == .invalidRequest)
    }

    @Test func aBodyShorterThanAnnouncedFails() async throws {
        let body = BodyStream(Self.sequence([Data(count: 60)]), length: 100)
        let resumes = Resumes()
        try body.start(resume: resumes.closure)
        let result = await readAll(body, resumes: resumes)
        guard case .failure(let error) = result else { Issue.record("the short body was read"); return }
        #expect(error.kind == .invalidRequest)
        #expect(error.message.contains("60 of the 100"))
    }

    @Test func aThrowingSequenceFailsTheBody() async throws {
        struct Broken: Error {}
        let failing = AsyncThrowingStream<Data, any Error> { continuation in
            continuation.yield(Data(count: 10))
            continuation.finish(throwing: Broken())
        }
        let body = BodyStream(failing, length: nil)
        let resumes = Resumes()
        try body.start(resume: resumes.closure)
        let result = await readAll(body, resumes: resumes)
        guard case .failure(let error) = result else { Issue.record("the broken body was read"); return }
        #expect(error.kind == .invalidRequest)
    }

    @Test func anInputStreamIsReadWhole() async throws {
        let data = Data((0..<700_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let body = BodyStream(inputStream: InputStream(data: data), length: Int64(data.count))
        let resumes = Resumes()
        try body.start(resume: resumes.closure)
        let result = await readAll(body, resumes: resumes)
        #expect(try result.get() == data)
    }
}
