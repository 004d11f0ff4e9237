import Foundation
import Synchronization

/// The Swift 4 demo: a ranking list inside a nested envelope,
/// `{"code":1,"data":{"stateCode":1,"message":"成功","returnData":{"rankinglist":[…]}}}`,
/// whose items send some numbers as numbers and others as strings — and a large download
/// with a progress display in the terminal.
public enum RankListSample {
    /// One entry of the list. `argValue` and `rankingType` arrive as `1` in one item and
    /// `"2"` in the next; `@Lenient` takes both, where a plain `Int` would fail the whole list.
    struct RankItem: Decodable, Sendable {
        let title: String
        let subTitle: String
        @Lenient var argValue: Int
        @Lenient var rankingType: Int
    }

    /// Where this API keeps its outcome: the code and message one level down, the list three.
    static let ranking = Envelope(codePath: "data.stateCode", messagePath: "data.message",
                                  payloadPath: "data.returnData.rankinglist", successCodes: [1])

    /// The size of the download: 32 MiB.
    static let downloadSize = 32 * 1024 * 1024

    public static func run(baseURL: URL, output: SampleOutput) async throws {
        let api = ChainConfiguration(baseURL: baseURL, envelope: ranking)

        let items = try await api.url("rank/list").value([RankItem].self)
        output.say("ranking list, \(items.count) items (numbers and strings mixed in the JSON, Ints here):")
        for item in items {
            output.say("   \(item.argValue). \(item.title) — \(item.subTitle) (rankingType \(item.rankingType))")
        }
        try expect(items.map(\.argValue) == [1, 2, 3, 4] && items.map(\.rankingType) == [1, 2, 3, 4],
                   "argValue and rankingType 1…4")

        let failed = try await expectFailure("stateCode 0") { try await api.url("rank/fail").value([RankItem].self) }
        output.say("a failing list: \(failed.kind)")
        try expect(failed.kind == .business(code: "0", message: "参数错误"), "stateCode 0 with the server's message")

        try await download(baseURL: baseURL, output: output)
    }

    /// Downloads 32 MiB straight to a file (constant memory) with the terminal progress display.
    static func download(baseURL: URL, output: SampleOutput) async throws {
        let destination = FileManager.default.temporaryDirectory
            .appendingPathComponent("chain-rank-list-\(UUID().uuidString).bin")
        defer { try? FileManager.default.removeItem(at: destination) }

        // The Linux counterpart of MBProgressHUD: one redrawn line per request on standard
        // error — a bar, percent, speed, time left. It draws only when standard error is a
        // terminal, so it stays quiet in tests and pipes. Here it is given to this one call;
        // `Hooks.shared.add(TerminalProgressHook())` would show every request of the program.
        let display = TerminalProgressHook()
        let reports = Mutex(0)
        output.say("downloading \(downloadSize) bytes to \(destination.lastPathComponent)"
                   + (display.isEnabled ? " (progress below, on standard error)" : " (no terminal: progress display off)"))

        // The body streams to a temporary file beside the destination, renamed into place
        // once the download succeeded: constant memory, never a partial file.
        let request = Request.url(baseURL.appendingPathComponent("bytes/\(downloadSize)"))
            .hook(display)
            .progress { _ in reports.withLock { $0 += 1 } }
        let delivery: Delivery<URL> = await withCheckedContinuation { continuation in
            request.downloadDelivery(to: destination) { continuation.resume(returning: $0) }
        }
        _ = try delivery.result.get()
        guard let response = delivery.response else { throw SampleFailure("the download delivered no response") }

        let saved = try FileManager.default.attributesOfItem(atPath: destination.path)[.size] as? NSNumber
        let progressReports = reports.withLock { $0 }
        output.say("downloaded: HTTP \(response.statusCode), \(saved?.intValue ?? 0) bytes on disk, "
                   + "\(progressReports) progress reports, "
                   + String(format: "%.2f s", response.timings.total))
        try expect(response.statusCode == 200 && saved?.intValue == downloadSize,
                   "all \(downloadSize) bytes in the file")
    }
}
