import Chain
import Synchronization

/// Records, for requests whose URL carries `marker`, what a person would compare: the event,
/// the method and path, and the outcome. Ids are checked for pairing, then dropped.
final class MarkedRecorder: HTTPHook {
    struct Event: Equatable, Sendable, CustomStringConvertible {
        var kind: String
        var method: String
        var path: String
        var outcome: String
        var description: String { "\(kind) \(method) \(path) \(outcome)" }
    }

    let marker: String
    private let storage = Mutex<(events: [Event], open: Set<UInt64>, unbalanced: Bool)>(([], [], false))

    init(marker: String) { self.marker = marker }

    private func matches(_ context: HookContext) -> Bool { context.request.url.absoluteString.contains(marker) }

    func willSend(_ context: HookContext) {
        guard matches(context) else { return }
        storage.withLock {
            $0.unbalanced = $0.unbalanced || !$0.open.insert(context.id).inserted
            $0.events.append(Event(kind: "willSend", method: context.request.method.rawValue,
                                   path: context.request.url.path, outcome: ""))
        }
    }

    func didFinish(_ context: HookContext, response: HTTPResponse) {
        guard matches(context) else { return }
        end(context, Event(kind: "finished", method: context.request.method.rawValue, path: context.request.url.path,
                           outcome: "\(response.statusCode) \(response.source.rawValue)"))
    }

    func didFail(_ context: HookContext, error: NetworkError) {
        guard matches(context) else { return }
        end(context, Event(kind: "failed", method: context.request.method.rawValue, path: context.request.url.path,
                           outcome: "\(error.kind)"))
    }

    private func end(_ context: HookContext, _ event: Event) {
        storage.withLock {
            $0.unbalanced = $0.unbalanced || $0.open.remove(context.id) == nil
            $0.events.append(event)
        }
    }

    var events: [Event] { storage.withLock { $0.events } }
    var isBalanced: Bool { storage.withLock { !$0.unbalanced && $0.open.isEmpty } }
}
