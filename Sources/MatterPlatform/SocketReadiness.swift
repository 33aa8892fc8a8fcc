import Synchronization

/// Calls `handler` when a descriptor has data to read, and not again until the handler's work is done: the
/// process waits in the kernel (`EventLoop`, one epoll thread for every descriptor) instead of waking to look. The
/// handler runs on the loop's thread, so it hands its work on and returns; it gets a `resume` to call once that
/// work has drained the descriptor; until then the descriptor stays quiet, so it is not called again for the same
/// datagrams.
final class SocketReadiness: Sendable {
    private let descriptor: Int32
    private let watch: UInt64
    private let cancelled = Mutex(false)

    init(descriptor: Int32, handler: @escaping @Sendable (_ resume: @escaping @Sendable () -> Void) -> Void) {
        self.descriptor = descriptor
        watch = EventLoop.shared.watch(descriptor) {
            handler { EventLoop.shared.rearm(descriptor) }
        }
    }

    /// Stops watching; call before the descriptor is closed.
    func cancel() {
        let first = cancelled.withLock { cancelled in
            defer { cancelled = true }
            return !cancelled
        }
        if first { EventLoop.shared.unwatch(descriptor, watch: watch) }
    }

    deinit { cancel() }
}
