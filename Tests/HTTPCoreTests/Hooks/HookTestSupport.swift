import CurlTransport
import Dispatch
import Foundation
import HTTPCore
import HTTPFeatures
import Synchronization

/// Collects what a hook writes, in order, and how many writes there were.
final class CapturedOutput: Sendable {
    private let storage = Mutex<[String]>([])

    var output: HookOutput { HookOutput { [self] text in storage.withLock { $0.append(text) } } }
    var text: String { storage.withLock { $0.joined() } }
    var writeCount: Int { storage.withLock { $0.count } }
}

/// The screen a terminal would show for some output: enough of a terminal to follow the
/// progress display (`\r`, `\n`, cursor up `ESC[nA`, clear to end of screen `ESC[J`).
struct VirtualTerminal {
    private(set) var rows: [[Character]] = [[]]
    private var row = 0
    private var column = 0

    init(_ text: String) { feed(text) }

    /// The visible lines, without trailing empty ones.
    var lines: [String] {
        var lines = rows.map { String($0) }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    mutating func feed(_ text: String) {
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case "\r":
                column = 0
            case "\n":
                row += 1
                column = 0
                while rows.count <= row { rows.append([]) }
            case "\u{1B}":
                guard characters.popFirst() == "[" else { continue }
                var digits = ""
                while let next = characters.first, next.isNumber { digits.append(next); characters.removeFirst() }
                switch characters.popFirst() {
                case "A": row = max(0, row - (Int(digits) ?? 1))
                case "J":
                    rows[row].removeSubrange(min(column, rows[row].count)...)
                    rows.removeSubrange((row + 1)...)
                default: break
                }
            default:
                while rows[row].count < column { rows[row].append(" ") }
                if column < rows[row].count { rows[row][column] = character } else { rows[row].append(character) }
                column += 1
            }
        }
    }
}

/// Contexts for driving hooks directly, without the network.
func hookContext(_ id: UInt64, _ path: String, method: HTTPMethod = .get) -> HookContext {
    let url = URL(string: "http://example.test\(path)") ?? URL(fileURLWithPath: "/")
    return HookContext(id: id, request: HTTPRequest(url: url, method: method), origin: "tests")
}

extension HTTPClient {
    /// One call with only `hooks` attached (so parallel tests don't see each other's events), awaited.
    func delivery(_ request: HTTPRequest, hooks: [any HTTPHook], queue: DispatchQueue? = nil,
                  onStart: @escaping @Sendable (HTTPTask) -> Void = { _ in }) async -> Delivery<HTTPResponse> {
        await withCheckedContinuation { continuation in
            let task = perform(request, plan: .response(),
                               options: CallOptions(queue: queue, hooks: hooks, usesGlobalHooks: false)) {
                continuation.resume(returning: $0)
            }
            onStart(task)
        }
    }
}
