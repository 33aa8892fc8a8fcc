import Dispatch
import Synchronization

/// Calls `handler` when a descriptor has data to read, and not again until the handler's work is done: the
/// process waits in the kernel (epoll, through Dispatch) instead of waking to look. The handler gets a `resume`
/// to call once it has drained the descriptor; until then the source stays quiet, so it is not called again for
/// the same datagrams.
final class SocketReadiness: Sendable {
    private let gate: Gate
    private static let queue = DispatchQueue(label: "swift-home.socket-readiness")

    init(descriptor: Int32, handler: @escaping @Sendable (_ resume: @escaping @Sendable () -> Void) -> Void) {
        let gate = Gate(DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: Self.queue))
        self.gate = gate
        gate.source.setEventHandler {
            guard gate.suspend() else { return }
            handler { gate.resume() }
        }
        gate.source.activate()
    }

    /// Stops watching; call before the descriptor is closed.
    func cancel() {
        gate.cancel()
    }

    deinit { gate.cancel() }

    /// The source and whether it is suspended (Dispatch must not release a suspended source, so a cancel resumes it).
    private final class Gate: @unchecked Sendable {
        // Dispatch sources are thread-safe; Swift's Dispatch overlay does not mark them Sendable.
        let source: any DispatchSourceRead
        private let state = Mutex((suspended: false, cancelled: false))

        init(_ source: any DispatchSourceRead) { self.source = source }

        /// Suspends the source for one handler call; false when it is cancelled or already suspended.
        func suspend() -> Bool {
            state.withLock { state in
                guard !state.cancelled, !state.suspended else { return false }
                state.suspended = true
                source.suspend()
                return true
            }
        }

        func resume() {
            state.withLock { state in
                guard state.suspended else { return }
                state.suspended = false
                source.resume()
            }
        }

        func cancel() {
            state.withLock { state in
                guard !state.cancelled else { return }
                state.cancelled = true
                source.cancel()
                if state.suspended {
                    state.suspended = false
                    source.resume()
                }
            }
        }
    }
}
