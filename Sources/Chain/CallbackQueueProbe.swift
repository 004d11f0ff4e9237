import Dispatch
import Foundation

/// Tells whether waiting for a delivery on a queue would deadlock the calling thread: the
/// thread is running that queue, or it is the main thread and the queue is the main queue.
///
/// Queues are recognised by a marker object set as a queue-specific value (libdispatch's
/// own mechanism; `DispatchQueue` wrappers are not identical objects on Linux, so `===`
/// cannot compare them).
enum CallbackQueueProbe {
    /// An identity, nothing more.
    final class Marker: Sendable {}

    static let key = DispatchSpecificKey<Marker>()

    /// The marker of the main queue, set once on first use.
    static let mainMarker: Marker = {
        let marker = Marker()
        DispatchQueue.main.setSpecific(key: key, value: marker)
        return marker
    }()

    /// Whether blocking the current thread until `queue` runs a closure would deadlock.
    static func waitingWouldDeadlock(on queue: DispatchQueue) -> Bool {
        let main = mainMarker
        if Thread.isMainThread && queue.getSpecific(key: key) === main { return true }
        return isCurrent(queue)
    }

    /// Whether the current thread is running `queue` (or a queue that targets it).
    static func isCurrent(_ queue: DispatchQueue) -> Bool {
        if queue.getSpecific(key: key) == nil { queue.setSpecific(key: key, value: Marker()) }
        // Read back rather than trust the marker just made: two threads may race to set one.
        guard let marker = queue.getSpecific(key: key) else { return false }
        return DispatchQueue.getSpecific(key: key) === marker
    }
}
