/// Why a `SampleServer` could not start.
public enum SampleServerError: Error, CustomStringConvertible, Sendable {
    /// A socket call failed: the call's name, `errno` and `strerror` text.
    case systemCallFailed(call: String, errno: Int32, message: String)
    /// The port could not be bound (typically `EADDRINUSE`): the port, `errno` and its text.
    case bindFailed(port: UInt16, errno: Int32, message: String)
    /// The Unix-domain socket could not be set up at `path`: an unusable path, a live socket or
    /// another kind of file already there (`EADDRINUSE`, `EEXIST`), or a failed bind or chmod.
    case unixSocketFailed(path: String, errno: Int32, message: String)
    /// The listener thread could not be started (`pthread_create`'s result code).
    case threadStartFailed

    /// A one-line description, e.g. `cannot bind 127.0.0.1:8080: Address already in use (errno 98)`.
    public var description: String {
        switch self {
        case let .systemCallFailed(call, code, message): "\(call) failed: \(message) (errno \(code))"
        case let .bindFailed(port, code, message): "cannot bind 127.0.0.1:\(port): \(message) (errno \(code))"
        case let .unixSocketFailed(path, code, message): "cannot listen on \(path): \(message) (errno \(code))"
        case .threadStartFailed: "cannot start the listener thread"
        }
    }
}
