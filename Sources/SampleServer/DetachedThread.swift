import Glibc

/// Starts detached POSIX threads. Used instead of Foundation's `Thread` because thread
/// creation can fail under load (200+ connections) and `pthread_create` reports that.
enum DetachedThread {
    /// Carries the closure through `pthread_create`'s `void *` argument.
    private final class Box {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new thread with a `stackSize`-byte stack; `false` if no thread could be made.
    static func start(stackSize: Int = 4 << 20, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        guard pthread_attr_init(&attributes) == 0 else { return false }
        defer { pthread_attr_destroy(&attributes) }
        _ = pthread_attr_setstacksize(&attributes, stackSize)
        _ = pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))

        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, &attributes, { argument in
            if let argument {
                Unmanaged<Box>.fromOpaque(argument).takeRetainedValue().body()
            }
            return nil
        }, box)
        if result != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            return false
        }
        return true
    }
}
