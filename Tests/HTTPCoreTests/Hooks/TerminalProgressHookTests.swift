import CurlTransport
import Foundation
import HTTPCore
import HTTPFeatures
import Testing

@Suite("Hooks: terminal progress", .timeLimit(.minutes(1)))
struct TerminalProgressHookTests {
    static let spinner = Set("⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏")

    // MARK: Rendering (pure)

    @Test func unknownSizeShowsASpinnerWithBytesAndSpeed() {
        var board = ProgressBoard()
        board.begin(id: 1, label: "GET example.test/feed", at: 100)
        board.update(id: 1, progress: TransferProgress(direction: .download, completedBytes: 12_300, totalBytes: nil))
        let lines = board.render(width: 80, now: 101)
        #expect(lines == ["⠋ GET example.test/feed  12.3 kB  12.3 kB/s"])
        // The spinner turns with time.
        #expect(board.render(width: 80, now: 101.15)[0].first == "⠙")
    }

    @Test func knownSizeShowsABarWithPercentSpeedAndTimeLeft() throws {
        var board = ProgressBoard()
        board.begin(id: 1, label: "GET example.test/big.iso", at: 0)
        board.update(id: 1, progress: TransferProgress(direction: .download, completedBytes: 50_000, totalBytes: 100_000))
        let line = try #require(board.render(width: 80, now: 2).first)
        #expect(line.hasPrefix("⠋ GET example.test/big.iso [=") && line.contains(">"))
        #expect(line.hasSuffix("]  50%  25.0 kB/s 0:02 left"))
        #expect(line.count == 79)
    }

    @Test func beforeAnyProgressTheLineShowsTheTimeWaited() {
        var board = ProgressBoard()
        board.begin(id: 1, label: "GET example.test/slow", at: 0)
        #expect(board.render(width: 80, now: 3.5) == ["⠴ GET example.test/slow  0:04"])
    }

    @Test func anUploadUnderWayIsShownBeforeTheDownload() throws {
        var board = ProgressBoard()
        board.begin(id: 1, label: "POST example.test/upload", at: 0)
        board.update(id: 1, progress: TransferProgress(direction: .upload, completedBytes: 10, totalBytes: 100))
        let line = try #require(board.render(width: 80, now: 1).first)
        #expect(line.contains(" 10% sent"))
    }

    @Test(arguments: [20, 32, 50, 80, 200])
    func linesFitTheWidth(width: Int) {
        var board = ProgressBoard()
        board.begin(id: 1, label: "GET a-very-long-host-name.example.test/a/very/long/path/to/a/file.tar.gz", at: 0)
        board.update(id: 1, progress: TransferProgress(direction: .download, completedBytes: 1_234_567, totalBytes: 9_999_999))
        board.begin(id: 2, label: "GET example.test/x", at: 0)
        board.update(id: 2, progress: TransferProgress(direction: .download, completedBytes: 1_234_567, totalBytes: nil))
        for line in board.render(width: width, now: 1.5) {
            #expect(line.count < width, "\(line)")
        }
    }

    @Test func concurrentRequestsKeepSeparateLinesAndEndingOneKeepsTheOther() {
        var board = ProgressBoard()
        board.begin(id: 7, label: "GET example.test/a", at: 0)
        board.begin(id: 8, label: "GET example.test/b", at: 0)
        board.update(id: 7, progress: TransferProgress(direction: .download, completedBytes: 10, totalBytes: 100))
        board.update(id: 8, progress: TransferProgress(direction: .download, completedBytes: 99, totalBytes: nil))
        let both = board.render(width: 80, now: 1)
        #expect(both.count == 2)
        #expect(both[0].contains("/a") && both[1].contains("/b"))

        #expect(board.end(id: 7)?.label == "GET example.test/a")
        #expect(board.render(width: 80, now: 1) == [both[1]])
        #expect(board.end(id: 7) == nil)  // ending twice removes nothing else
        #expect(board.entries.map(\.id) == [8])
    }

    @Test func moreRequestsThanLinesShareALastLine() {
        var board = ProgressBoard()
        for id in 1...10 { board.begin(id: UInt64(id), label: "GET example.test/\(id)", at: 0) }
        let lines = board.render(width: 80, now: 0, maximumLines: 4)
        #expect(lines.count == 4)
        #expect(lines[0].hasSuffix("GET example.test/1  0:00"))
        #expect(lines[3] == "  … and 7 more requests")
    }

    // MARK: The hook

    @Test func finishingOneOfTwoOverlappingRequestsKeepsTheOthersLine() throws {
        let captured = CapturedOutput()
        let hook = TerminalProgressHook(output: captured.output, forceEnabled: true, width: 60, redrawInterval: 0)
        let a = hookContext(1, "/a"), b = hookContext(2, "/b")
        hook.willSend(a)
        hook.willSend(b)
        hook.didProgress(a, progress: TransferProgress(direction: .download, completedBytes: 50, totalBytes: 100))
        hook.didProgress(b, progress: TransferProgress(direction: .download, completedBytes: 5_000, totalBytes: nil))
        #expect(VirtualTerminal(captured.text).lines.count == 2)

        let url = try #require(URL(string: "http://example.test/a"))
        hook.didFinish(a, response: HTTPResponse(statusCode: 200, body: Data(count: 1500), url: url,
                                                 timings: TransferTimings(total: 0.25)))
        var screen = VirtualTerminal(captured.text).lines
        #expect(screen.count == 2, "\(screen)")
        #expect(screen[0] == "✓ GET example.test/a  200  1.5 kB  250 ms")
        #expect(screen[1].contains("GET example.test/b  5.0 kB"))
        #expect(Self.spinner.contains(try #require(screen[1].first)))
        #expect(hook.board.entries.map(\.id) == [2])

        hook.didFail(b, error: NetworkError(.timedOut, "the request timed out after 1 s"))
        screen = VirtualTerminal(captured.text).lines
        #expect(screen == ["✓ GET example.test/a  200  1.5 kB  250 ms", "✗ GET example.test/b  the request timed out after 1 s"])
        #expect(hook.board.entries.isEmpty)
    }

    @Test func progressRedrawsAreThrottledButEndsAreDrawnAtOnce() {
        let captured = CapturedOutput()
        let hook = TerminalProgressHook(output: captured.output, forceEnabled: true, width: 80, redrawInterval: 60)
        let context = hookContext(1, "/file")
        hook.willSend(context)
        #expect(captured.writeCount == 1)
        for step in 1...50 {
            hook.didProgress(context, progress: TransferProgress(direction: .download, completedBytes: Int64(step), totalBytes: 50))
        }
        #expect(captured.writeCount == 1)
        hook.didFail(context, error: NetworkError(.cancelled, "the request was cancelled"))
        #expect(captured.writeCount == 2)
        #expect(VirtualTerminal(captured.text).lines == ["✗ GET example.test/file  the request was cancelled"])
    }

    @Test func messagesAreWrittenAboveTheProgressLines() {
        let captured = CapturedOutput()
        let hook = TerminalProgressHook(output: captured.output, forceEnabled: true, width: 80, redrawInterval: 0)
        hook.willSend(hookContext(1, "/slow"))
        hook.messageOutput.write("hello")
        let screen = VirtualTerminal(captured.text).lines
        #expect(screen.count == 2)
        #expect(screen[0] == "hello")
        #expect(screen[1].contains("GET example.test/slow"))
    }

    @Test func withoutATerminalNothingIsDrawn() {
        let captured = CapturedOutput()
        let hook = TerminalProgressHook(output: captured.output)
        // Under `swift test` standard error is usually a pipe; when it is a terminal the hook
        // is enabled by design, and there is nothing to check here.
        guard !hook.isEnabled else { return }
        hook.willSend(hookContext(1, "/x"))
        hook.didFinish(hookContext(1, "/x"), response: HTTPResponse(statusCode: 200, url: URL(fileURLWithPath: "/")))
        #expect(captured.text.isEmpty)
        #expect(hook.board.entries.isEmpty)
    }

    @Test func twoConcurrentTransfersAgainstTheServer() async throws {
        let captured = CapturedOutput()
        let hook = TerminalProgressHook(output: captured.output, forceEnabled: true, width: 100, redrawInterval: 0)
        // A paced body of known size (several progress reports), and a chunked one of unknown size.
        let pacedURL = try TestServer.endpoint("/drip?numbytes=20000&duration=0.4")
        let chunkedURL = try TestServer.endpoint("/stream-bytes/300000?chunk_size=4096")
        async let paced = HTTPClient.shared.delivery(HTTPRequest(url: pacedURL), hooks: [hook])
        async let chunked = HTTPClient.shared.delivery(HTTPRequest(url: chunkedURL), hooks: [hook])
        let (first, second) = await (paced, chunked)
        #expect(first.result.success?.statusCode == 200)
        #expect(second.result.success?.statusCode == 200)

        #expect(hook.board.entries.isEmpty)
        let screen = VirtualTerminal(captured.text).lines
        #expect(screen.count == 2, "\(screen)")
        #expect(screen.contains { $0.hasPrefix("✓ GET 127.0.0.1:") && $0.contains("/drip  200  20.0 kB  ") })
        #expect(screen.contains { $0.hasPrefix("✓ GET 127.0.0.1:") && $0.contains("/stream-bytes/300000  200  300.0 kB  ") })
        // Along the way, the paced body had a bar.
        #expect(captured.text.split(separator: "\n").contains { $0.contains("/drip [") && $0.contains("%") })
    }
}
