import CLinux
import Glibc
import MatterTime
import Synchronization

/// The process's one event loop: a thread blocked in `epoll_wait` until a watched descriptor is readable or the
/// earliest timer is due. It calls a descriptor's handler on itself the moment the kernel wakes it (one thread
/// wake-up per datagram, where a Dispatch read source takes two: its manager thread, then a worker). Descriptors are
/// one-shot (`EPOLLONESHOT`): a handler is not called again until it re-arms its descriptor, once it has drained it.
///
/// Timers are one `timerfd` on the same epoll, set to the earliest deadline of a `TimerQueue`: arming one is a
/// heap insert (and a `timerfd_settime` when it is the new earliest), cancelling one a heap removal, and neither
/// wakes a thread, where a sleeping task costs a task, a Dispatch timer and its manager thread's wake-ups for every
/// arm and every cancel (an MRP timer is re-armed on every message). Handlers and timer actions must be quick: they
/// hand the work to an actor and return.
final class EventLoop: Sendable {
    static let shared = EventLoop()

    private let epoll: Int32
    private let handlers = Mutex<[Int32: @Sendable () -> Void]>([:])
    private let timerDescriptor: Int32
    private let timers = Mutex(Timers())

    private struct Timers {
        var queue = TimerQueue<@Sendable () -> Void>()
        /// What the timerfd is set for; nil when disarmed.
        var armedFor: Instant?
    }

    private init() {
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        precondition(epoll >= 0, "epoll_create1 failed: \(errno)")
        timerDescriptor = timerfd_create(CLOCK_BOOTTIME, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        precondition(timerDescriptor >= 0, "timerfd_create failed: \(errno)")
        var timerEvent = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: timerDescriptor))
        precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, timerDescriptor, &timerEvent) == 0, "epoll_ctl timerfd: \(errno)")
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

    // MARK: Timers

    /// The loop's time: CLOCK_BOOTTIME (it keeps counting while the machine sleeps, like `ContinuousClock`), from
    /// the process's first use of it, so every driver of the process shares one timeline.
    static var now: Instant {
        let nanoseconds = bootTimeNanoseconds()
        return Instant(nanoseconds: nanoseconds > origin ? nanoseconds - origin : 0)
    }

    private static let origin = bootTimeNanoseconds()

    private static func bootTimeNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_BOOTTIME, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// Runs `action` on the loop's thread once `deadline` has come; at once, on the caller's thread, when it has.
    func schedule(at deadline: Instant, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        guard deadline > Self.now else {
            action()
            return .done
        }
        let id = timers.withLock { timers in
            let id = timers.queue.schedule(at: deadline, action)
            if timers.armedFor.map({ deadline < $0 }) ?? true { setTimer(deadline, &timers) }
            return id
        }
        // A cancelled timer's deadline may still be the timerfd's: it then wakes the loop once, for nothing due.
        return ClockTimer { [self] in _ = timers.withLock { $0.queue.cancel(id) } }
    }

    /// Sets the timerfd for `deadline` (absolute, on CLOCK_BOOTTIME), or disarms it for nil.
    private func setTimer(_ deadline: Instant?, _ timers: inout Timers) {
        timers.armedFor = deadline
        var setting = itimerspec()
        if let deadline {
            // Zero disarms a timerfd: a deadline at the origin itself fires a nanosecond later.
            let absolute = max(1, Self.origin + deadline.nanoseconds)
            setting.it_value = timespec(
                tv_sec: Int(absolute / 1_000_000_000), tv_nsec: Int(absolute % 1_000_000_000))
        }
        timerfd_settime(timerDescriptor, Int32(TFD_TIMER_ABSTIME), &setting, nil)
    }

    private func runDueTimers() {
        var expirations: UInt64 = 0
        _ = read(timerDescriptor, &expirations, MemoryLayout<UInt64>.size)
        let due = timers.withLock { timers in
            let due = timers.queue.popDue(at: Self.now)
            setTimer(timers.queue.nextDeadline, &timers)
            return due
        }
        for action in due { action() }
    }

    private func run() -> Never {
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while true {
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), -1) }
            guard count > 0 else { continue }  // EINTR
            for event in events[0..<Int(count)] {
                let descriptor = event.data.fd
                if descriptor == timerDescriptor {
                    runDueTimers()
                } else {
                    handlers.withLock { $0[descriptor] }?()
                }
            }
        }
    }

    private final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}
