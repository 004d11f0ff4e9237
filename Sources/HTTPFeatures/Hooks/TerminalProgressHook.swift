import Foundation
import HTTPCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress display for command-line programs — the Linux counterpart of MBProgressHUD.
///
/// Every request in flight gets its own line on standard error, keyed by its
/// ``HookContext/id`` and redrawn in place with ANSI cursor movement:
///
///     ⠹ GET example.com/big.iso [=========>           ]  47%  12.1 MB/s  0:31 left
///     ⠼ GET example.com/feed  41.2 kB  96.0 kB/s
///
/// a bar with percent, speed and time left when the size is known, a spinner with the bytes so
/// far when it is not. When a request ends, its line — and only its line — becomes a permanent
/// summary above the others (`✓ GET … 200  1.2 MB  0.84 s` or `✗ GET … <error>`), so two
/// overlapping requests never hide each other's display. More than ``maximumLines`` requests
/// share a last line `… and N more requests`.
///
/// It draws only when standard error is a terminal (and `TERM` is not `dumb`), unless made
/// with `forceEnabled`; otherwise every method returns at once. Progress redraws are throttled
/// (at most one per `redrawInterval`, default 0.1 s); starts and ends are drawn at once.
///
/// Other text written to the same terminal while lines are shown would be overwritten: write
/// it through ``messageOutput`` (for example, give that to a ``LoggerHook``).
public final class TerminalProgressHook: HTTPHook {
    private struct State {
        var board = ProgressBoard()
        /// Lines of the board now on screen, directly above the cursor.
        var drawnLines = 0
        var lastDraw: TimeInterval = -.infinity
    }

    /// Whether the hook draws at all: `forceEnabled`, or standard error is a terminal.
    public let isEnabled: Bool
    /// The most lines drawn at once (at least 1). Default 8.
    public let maximumLines: Int
    private let output: HookOutput
    private let fixedWidth: Int?
    private let redrawInterval: TimeInterval
    // Both the board and the order of writes to the terminal are shared between callback
    // queues: one lock keeps a redraw's cursor movement and lines together.
    private let state = Mutex(State())

    /// Makes a progress display.
    ///
    /// - Parameters:
    ///   - output: where the display is drawn. Default standard error.
    ///   - forceEnabled: draw even when standard error is not a terminal (for tests, or a
    ///     terminal the check cannot see). Default `false`.
    ///   - width: columns to fit lines in. Default `nil`: the terminal's width (`TIOCGWINSZ`),
    ///     else `$COLUMNS`, else 80, read at each redraw so resizing works.
    ///   - maximumLines: the most lines drawn at once. Default 8.
    ///   - redrawInterval: the least time between two progress redraws, in seconds. Default 0.1.
    public init(output: HookOutput = .standardError, forceEnabled: Bool = false, width: Int? = nil,
                maximumLines: Int = 8, redrawInterval: TimeInterval = 0.1) {
        self.output = output
        self.fixedWidth = width
        self.maximumLines = max(1, maximumLines)
        self.redrawInterval = max(0, redrawInterval)
        self.isEnabled = forceEnabled || TerminalProgressHook.standardErrorIsTerminal()
    }

    /// The requests on display now (empty when disabled).
    public var board: ProgressBoard { state.withLock { $0.board } }

    /// An output that writes text above the progress lines, so it scrolls up like normal output
    /// instead of being drawn over. When the hook is disabled it writes to this hook's output directly.
    /// Do not hand it to this hook's own `output` closure (the two would wait on each other).
    public var messageOutput: HookOutput {
        HookOutput { [self] text in
            guard isEnabled else {
                output.write(text)
                return
            }
            state.withLock { redraw(&$0, force: true, above: text.hasSuffix("\n") ? text : text + "\n") }
        }
    }

    /// Adds the request's line.
    public func willSend(_ context: HookContext) {
        guard isEnabled else { return }
        let label = HookFormat.label(context.request)
        state.withLock { state in
            state.board.begin(id: context.id, label: label, at: TerminalProgressHook.now())
            redraw(&state, force: true)
        }
    }

    /// Updates the request's line; redraws at most once per `redrawInterval`.
    public func didProgress(_ context: HookContext, progress: TransferProgress) {
        guard isEnabled else { return }
        state.withLock { state in
            state.board.update(id: context.id, progress: progress)
            redraw(&state, force: false)
        }
    }

    /// Replaces the request's line with a `✓` summary: status, size, time and source.
    public func didFinish(_ context: HookContext, response: HTTPResponse) {
        end(context, response: response, error: nil)
    }

    /// Replaces the request's line with a `✗` summary and the error's description.
    public func didFail(_ context: HookContext, error: NetworkError) {
        end(context, response: nil, error: error)
    }

    private func end(_ context: HookContext, response: HTTPResponse?, error: NetworkError?) {
        guard isEnabled else { return }
        state.withLock { state in
            let now = TerminalProgressHook.now()
            let entry = state.board.end(id: context.id)
            let elapsed = response.map { $0.source == .network ? $0.timings.total : 0 } ?? 0
            let summary = ProgressBoard.summary(label: entry?.label ?? HookFormat.label(context.request),
                                                response: response, error: error,
                                                elapsed: elapsed > 0 ? elapsed : now - (entry?.startedAt ?? now),
                                                width: width(), downloadedBytes: entry?.download?.completedBytes)
            redraw(&state, force: true, above: summary + "\n")
        }
    }

    /// Moves the cursor to the top of the drawn lines, clears to the end of the screen, writes
    /// `above` (which stays) and draws the board again — as one write, so it cannot interleave.
    private func redraw(_ state: inout State, force: Bool, above: String = "") {
        let now = TerminalProgressHook.now()
        guard force || now - state.lastDraw >= redrawInterval else { return }
        let lines = state.board.render(width: width(), now: now, maximumLines: maximumLines)
        guard state.drawnLines > 0 || !lines.isEmpty || !above.isEmpty else { return }
        var text = state.drawnLines > 0 ? "\r\u{1B}[\(state.drawnLines)A\u{1B}[J" : ""
        text += above
        for line in lines { text += line + "\n" }
        state.drawnLines = lines.count
        state.lastDraw = now
        output.write(text)
    }

    private func width() -> Int {
        if let fixedWidth { return fixedWidth }
        var size = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        return 80
    }

    private static func standardErrorIsTerminal() -> Bool {
        isatty(STDERR_FILENO) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Monotonic seconds: wall-clock jumps must not make speeds negative.
    private static func now() -> TimeInterval {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}
