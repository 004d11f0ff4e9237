import Foundation
import Synchronization

/// The handle every ``HTTPSessionManager`` call returns: the counterpart of
/// `NSURLSessionDataTask` (and of the upload and download tasks).
///
/// Tasks start when they are made, as AFNetworking's convenience methods' tasks do; ``resume()``
/// exists only so ported code compiles. ``cancel()`` is safe from any thread, any number of
/// times: a task cancelled before it finished calls its `failure` with
/// ``NetworkError/Kind/cancelled`` exactly once.
public final class SessionTask: Sendable, Hashable, CustomStringConvertible {
    /// Where a task is in its life (`NSURLSessionTaskState` without `suspended`).
    public enum State: String, Sendable, Hashable {
        /// Sent or waiting to be sent.
        case running
        /// ``SessionTask/cancel()`` was called; the `failure` with
        /// ``NetworkError/Kind/cancelled`` is on its way.
        case canceling
        /// The final `success` or `failure` has been called (or is being called).
        case completed
    }

    private struct Storage {
        var httpTask = CancelSlot<HTTPTask>()
        var isCompleted = false
        var currentRequest: HTTPRequest?
        var response: HTTPResponse?
        var error: NetworkError?
        var uploadProgress: TransferProgress?
        var downloadProgress: TransferProgress?
    }

    private static let identifiers = Atomic<Int>(0)

    /// A number unique among the tasks of this process, increasing (`taskIdentifier`).
    public let taskIdentifier: Int
    /// The request as the manager's request serializer built it, before interceptors.
    public let originalRequest: HTTPRequest
    /// The direction the call's `progress` closure and ``progress`` follow.
    let progressDirection: TransferProgress.Direction
    private let storage = Mutex(Storage())

    init(originalRequest: HTTPRequest, progressDirection: TransferProgress.Direction) {
        self.taskIdentifier = SessionTask.identifiers.add(1, ordering: .relaxed).newValue
        self.originalRequest = originalRequest
        self.progressDirection = progressDirection
    }

    /// The current state. Default ``State/running``.
    public var state: State {
        storage.withLock { storage in
            if storage.isCompleted { return .completed }
            return storage.httpTask.isCancelled ? .canceling : .running
        }
    }

    /// The request as sent (after interceptors), or ``originalRequest`` until it is known.
    public var currentRequest: HTTPRequest {
        storage.withLock { $0.currentRequest ?? $0.httpTask.target?.currentRequest } ?? originalRequest
    }

    /// The response of the latest delivery (also for HTTP errors), or `nil` before one arrived.
    /// After the cached delivery of a `.fileFirst` call it is the stored copy (`source == .cache`).
    public var response: HTTPResponse? { storage.withLock { $0.response } }

    /// The error the task ended with, or `nil` while running and after a success.
    public var error: NetworkError? { storage.withLock { $0.error } }

    /// The latest progress report in the direction the call's `progress` closure follows:
    /// upload for `POST`, `PUT`, `PATCH` and uploads, download otherwise. `nil` before the first.
    public var progress: TransferProgress? {
        storage.withLock { progressDirection == .upload ? $0.uploadProgress : $0.downloadProgress }
    }

    /// The latest upload report (`uploadProgress` in AFNetworking), or `nil` before the first.
    public var uploadProgress: TransferProgress? { storage.withLock { $0.uploadProgress } }

    /// The latest download report (`downloadProgress` in AFNetworking), or `nil` before the first.
    public var downloadProgress: TransferProgress? { storage.withLock { $0.downloadProgress } }

    /// Cancels the task. See the type's documentation for the guarantees.
    public func cancel() {
        storage.withLock { storage -> HTTPTask? in
            storage.isCompleted ? nil : storage.httpTask.cancel()
        }?.cancel()
    }

    /// Does nothing: the task started when it was made. Kept so ported code that calls
    /// `resume()` compiles.
    public func resume() {}

    /// Connects the core task; cancels it at once when ``cancel()`` came first.
    func attach(_ task: HTTPTask) {
        if !storage.withLock({ $0.httpTask.attach(task) }) { task.cancel() }
    }

    func record(_ progress: TransferProgress) {
        storage.withLock { storage in
            switch progress.direction {
            case .upload: storage.uploadProgress = progress
            case .download: storage.downloadProgress = progress
            }
        }
    }

    /// Notes one delivery; the final one completes the task.
    func record(response: HTTPResponse?, request: HTTPRequest, error: NetworkError?, isFinal: Bool) {
        storage.withLock { storage in
            storage.currentRequest = request
            if let response { storage.response = response }
            storage.error = error
            if isFinal {
                storage.isCompleted = true
                storage.httpTask.detach()
            }
        }
    }

    /// The request as sent, as a `curl` command a shell runs as it is, with `Authorization`,
    /// `Cookie` and password-like parameters shown as `***` (``Redaction/default``).
    public var curlDescription: String { currentRequest.curlCommand() }

    /// Tasks are equal only to themselves.
    public static func == (lhs: SessionTask, rhs: SessionTask) -> Bool { lhs === rhs }
    /// Hashes the task's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    /// `SessionTask(<id>, <method> <url>, <state>)`.
    public var description: String {
        "SessionTask(\(taskIdentifier), \(originalRequest.method) \(originalRequest.url.absoluteString), \(state))"
    }
}

/// `NSURLSessionDataTask`'s name, for ported code.
public typealias SessionDataTask = SessionTask
/// `NSURLSessionUploadTask`'s name, for ported code.
public typealias SessionUploadTask = SessionTask
/// `NSURLSessionDownloadTask`'s name, for ported code.
public typealias SessionDownloadTask = SessionTask
