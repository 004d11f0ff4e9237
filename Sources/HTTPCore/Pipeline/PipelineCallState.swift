import Synchronization

/// What a ``PipelineCall`` changes as it runs. Outside the generic class on purpose: a type
/// nested in `PipelineCall<Value>` is generic too, and the front ends' calls (unspecialised,
/// from other modules) looked up its metadata, and its `Mutex`'s, at run time on every access.
struct PipelineCallState {
    var machine: CallStateMachine
    var openContext: HookContext?
    /// The total timeout's timer, cancelled at the final delivery; `nil` without one.
    var totalTimer: CallTimer?
    /// The cache step's completion for the network request it made, until it is answered.
    var cacheDone: (@Sendable (Result<HTTPResponse, NetworkError>) -> Void)?
    /// The plan's verdict on the network response handed to the cache step (`nil` inside:
    /// accepted), until its delivery uses it; `nil` before.
    var verdict: NetworkError??
    /// The number of the responders' current answer: an answer of an earlier attempt or hop
    /// (a responder that answered twice, or late) carries an older number and is ignored.
    var responderAnswer = 0
}

/// What an action needs from the call's state besides the machine, taken under the same
/// lock: the hook context a transfer opens, the pairing of a delivery (`nil` without hooks),
/// the timer a final delivery stops, the cache step's pending completion.
struct PreparedAction: Sendable {
    var announce: HookContext?
    var pairing: (context: HookContext, needsAnnouncing: Bool)?
    var timer: CallTimer?
    var cacheDone: (@Sendable (Result<HTTPResponse, NetworkError>) -> Void)?
}

extension PipelineCallState {
    /// Takes what `action` needs besides the machine (see ``PreparedAction``).
    mutating func prepare(_ action: CallStateMachine.Action, hooks: [any HTTPHook], origin: String) -> PreparedAction {
        var prepared = PreparedAction()
        switch action {
        case .startTransfer(let request), .answerFromStub(let request):
            // A retry keeps the pair its first attempt opened.
            guard !hooks.isEmpty, openContext == nil else { break }
            let context = HookContext(id: PipelineIDs.next(), request: request, origin: origin)
            openContext = context
            prepared.announce = context
        case .deliver(_, let request, let isFinal):
            if isFinal {
                prepared.timer = totalTimer.take()
                // A final delivery that the cache step did not make (a stop during its wait)
                // still answers the step's pending network request, so it ends too.
                prepared.cacheDone = cacheDone.take()
            }
            if let open = openContext {
                openContext = nil
                prepared.pairing = (open, false)
            } else if !hooks.isEmpty {
                // A delivery with no transfer before it (a cache hit, a failed adaptation, a
                // request that could not be built) opens its own pair.
                prepared.pairing = (HookContext(id: PipelineIDs.next(), request: request, origin: origin), true)
            }
        case .returnToCache:
            prepared.cacheDone = cacheDone.take()
        default:
            break
        }
        return prepared
    }
}

/// Call identifiers for hook contexts, unique per process.
package enum PipelineIDs {
    static let counter = Atomic<UInt64>(0)

    /// A new identifier for a ``HookContext``, unique in the process.
    package static func next() -> UInt64 {
        counter.add(1, ordering: .relaxed).newValue
    }
}
