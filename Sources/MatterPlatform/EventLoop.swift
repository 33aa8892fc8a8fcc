import CLinux
import Glibc
import Synchronization

/// The process's one readiness loop: a thread blocked in `epoll_wait` on every watched descriptor, which calls a
/// descriptor's handler on itself the moment the kernel wakes it (one thread wake-up per datagram, where a Dispatch
/// read source takes two: its manager thread, then a worker). Descriptors are one-shot (`EPOLLONESHOT`): a handler
/// is not called again until it re-arms its descriptor, once it has drained it. Handlers must be quick: they hand
/// the work to an actor and return.
final class EventLoop: Sendable {
    static let shared = EventLoop()

    private let epoll: Int32
    private let handlers = Mutex<[Int32: @Sendable () -> Void]>([:])

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1 failed: \(errno)")
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        // The loop lives as long as the process: its thread holds it.
        let context = Unmanaged.passRetained(Box { [self] in self.run() }).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, &attributes,
            { context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                box.body()
                return nil
            }, context)
        precondition(created == 0, "pthread_create failed: \(created)")
        pthread_detach(thread)
    }

    /// Calls `handler` on the loop's thread when `descriptor` is readable, once; `rearm` asks for the next time.
    func watch(_ descriptor: Int32, handler: @escaping @Sendable () -> Void) {
        handlers.withLock { $0[descriptor] = handler }
        var event = epoll_event(events: EPOLLIN.rawValue | EPOLLONESHOT.rawValue, data: epoll_data_t(fd: descriptor))
        let added = epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event)
        precondition(added == 0, "epoll_ctl ADD \(descriptor) failed: \(errno)")
    }

    func rearm(_ descriptor: Int32) {
        var event = epoll_event(events: EPOLLIN.rawValue | EPOLLONESHOT.rawValue, data: epoll_data_t(fd: descriptor))
        _ = epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &event)
    }

    /// Stops watching; call before the descriptor is closed.
    func unwatch(_ descriptor: Int32) {
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, nil)
        _ = handlers.withLock { $0.removeValue(forKey: descriptor) }
    }

    private func run() -> Never {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), -1) }
            guard count > 0 else { continue }  // EINTR
            for event in events[0..<Int(count)] {
                let descriptor = event.data.fd
                handlers.withLock { $0[descriptor] }?()
            }
        }
    }

    private final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
