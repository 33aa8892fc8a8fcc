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
///
/// The loop is also an executor (`EventLoopExecutor`). The transport runs on it, so a datagram is read and decrypted
/// on the thread epoll woke; the tasks that drive protocol work (Interaction Model transactions and subscriptions, a
/// virtual device's exchanges and timers) prefer it as their task executor, so the actors they call run there too
/// and a continuation the transport resumes runs at once. Each hop to the cooperative pool and back is a wake-up of
/// another thread, and a read's round trip took four of them (measured: ~210 µs on loopback with them, ~130 µs
/// without). Only the transport is bound to the loop: an actor bound to it takes every caller's work onto its one
/// thread (a device and a hub in one process then queue behind each other; measured: a command twice as slow).
/// Jobs enqueued from another thread wake the loop through an eventfd; from the loop itself they only join its
/// queue. As for handlers, nothing run there may block: files and the database are written on their own queues.
final class EventLoop: Sendable {
    static let shared = EventLoop()

    private let epoll: Int32
    /// Each watched descriptor's handler, with the watch it belongs to: a descriptor watched anew before its earlier
    /// watch let go (a readiness replaced by another) keeps the newer one when the older one's unwatch comes late.
    private let handlers = Mutex<(next: UInt64, byDescriptor: [Int32: (watch: UInt64, handler: @Sendable () -> Void)])>(
        (1, [:]))
    private let timerDescriptor: Int32
    private let timers = Mutex(Timers())
    /// Wakes the loop when a job is enqueued while it waits.
    private let jobDescriptor: Int32
    private let jobs = Mutex(Jobs())
    /// The loop's thread (`pthread_self`), set as it starts.
    private let thread = Atomic<UInt>(0)

    private struct Jobs {
        var queue: [UnownedJob] = []
        /// The loop is in (or about to enter) `epoll_wait`: an enqueue must write the eventfd.
        var waiting = false
    }

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
        jobDescriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        precondition(jobDescriptor >= 0, "eventfd failed: \(errno)")
        var jobEvent = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(fd: jobDescriptor))
        precondition(epoll_ctl(epoll, EPOLL_CTL_ADD, jobDescriptor, &jobEvent) == 0, "epoll_ctl eventfd: \(errno)")
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
    /// Returns the watch, for `unwatch`. A descriptor still watched (its earlier watch not yet let go) is taken over.
    func watch(_ descriptor: Int32, handler: @escaping @Sendable () -> Void) -> UInt64 {
        let watch = handlers.withLock { state in
            defer { state.next += 1 }
            state.byDescriptor[descriptor] = (state.next, handler)
            return state.next
        }
        var event = epoll_event(events: EPOLLIN.rawValue | EPOLLONESHOT.rawValue, data: epoll_data_t(fd: descriptor))
        var added = epoll_ctl(epoll, EPOLL_CTL_ADD, descriptor, &event)
        if added != 0, errno == EEXIST { added = epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &event) }
        precondition(added == 0, "epoll_ctl ADD \(descriptor) failed: \(errno)")
        return watch
    }

    func rearm(_ descriptor: Int32) {
        var event = epoll_event(events: EPOLLIN.rawValue | EPOLLONESHOT.rawValue, data: epoll_data_t(fd: descriptor))
        _ = epoll_ctl(epoll, EPOLL_CTL_MOD, descriptor, &event)
    }

    /// Stops `watch` of `descriptor`, unless a newer watch took the descriptor over; call before it is closed.
    func unwatch(_ descriptor: Int32, watch: UInt64) {
        let current = handlers.withLock { state -> Bool in
            guard state.byDescriptor[descriptor]?.watch == watch else { return false }
            state.byDescriptor[descriptor] = nil
            return true
        }
        if current { _ = epoll_ctl(epoll, EPOLL_CTL_DEL, descriptor, nil) }
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
        thread.store(pthread_self(), ordering: .releasing)
        // Allocated once, for the loop's life, which is the process's. An array here leaked a copy of itself at every
        // pass that found events, in release builds of Swift 6.3.1: in this endless loop the optimizer never released
        // the slice iterated below, so the array was no longer unique at the next pass. About 800 bytes per pass,
        // 1.5 MB a minute for a hub following a thousand nodes.
        let events = UnsafeMutableBufferPointer<epoll_event>.allocate(capacity: 64)
        events.initialize(repeating: epoll_event())
        while true {
            // Jobs a pass enqueued wait for the next pass, after the descriptors have been looked at without waiting:
            // a task that keeps yielding never starves the sockets.
            let morePending = runJobs()
            let count = epoll_wait(epoll, events.baseAddress, Int32(events.count), morePending ? 0 : -1)
            jobs.withLock { $0.waiting = false }
            guard count > 0 else { continue }  // EINTR
            for event in events[0..<Int(count)] {
                let descriptor = event.data.fd
                if descriptor == timerDescriptor {
                    runDueTimers()
                } else if descriptor == jobDescriptor {
                    var wakes: UInt64 = 0
                    _ = read(jobDescriptor, &wakes, MemoryLayout<UInt64>.size)
                } else {
                    handlers.withLock { $0.byDescriptor[descriptor]?.handler }?()
                }
            }
        }
    }

    /// Runs the jobs enqueued so far; returns whether more were enqueued meanwhile. When none were, the loop is
    /// about to wait, and an enqueue from now on wakes it.
    private func runJobs() -> Bool {
        let batch = jobs.withLock { jobs in
            defer { jobs.queue = [] }
            return jobs.queue
        }
        // Every job runs with the loop as its task executor too: a task that prefers the loop then finds itself
        // already where it wants to be at its next hop to a loop actor. (A task without that preference takes one
        // extra turn through the queue at such a hop; see `MatterTransport.receive`.)
        for job in batch {
            ExecutorJob(job).runSynchronously(
                isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
        }
        return jobs.withLock { jobs in
            jobs.waiting = jobs.queue.isEmpty
            return !jobs.queue.isEmpty
        }
    }

    var isCurrentThread: Bool { pthread_self() == thread.load(ordering: .acquiring) }

    private final class Box: @unchecked Sendable {
        let body: () -> Void
        init(_ body: @escaping () -> Void) { self.body = body }
    }
}

extension EventLoop: SerialExecutor, TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = jobs.withLock { jobs in
            jobs.queue.append(job)
            defer { jobs.waiting = false }
            return jobs.waiting
        }
        if wake {
            var one: UInt64 = 1
            _ = write(jobDescriptor, &one, MemoryLayout<UInt64>.size)
        }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }

    func asUnownedTaskExecutor() -> UnownedTaskExecutor { UnownedTaskExecutor(ordinary: self) }

    /// Descriptor handlers run on the loop's thread outside any job: an actor on the loop may be entered there
    /// (`assumeIsolated`).
    func checkIsolated() {
        precondition(isCurrentThread, "not on the event loop's thread")
    }
}

/// The event loop as an executor, for the protocol actors that run on its thread (see `EventLoop`).
public enum EventLoopExecutor {
    /// An actor's `unownedExecutor` for running on the loop.
    public static var serial: UnownedSerialExecutor { EventLoop.shared.asUnownedSerialExecutor() }

    /// A task's executor preference, for tasks whose waits end on the loop (a transaction's): a continuation is
    /// resumed on the task's preferred executor, where without one it goes through the global pool first (a thread
    /// wake-up) and only then hops to the actor.
    public static var preferred: any TaskExecutor { EventLoop.shared }

    /// Returns once every job queued on the loop before the call has run (a hop onto the loop and back): a test
    /// driving a manual clock lets what the last step woke run to its end before the next step.
    public static func flush() async {
        await LoopProbe.shared.touch()
    }
}

private actor LoopProbe {
    static let shared = LoopProbe()
    nonisolated var unownedExecutor: UnownedSerialExecutor { EventLoopExecutor.serial }
    func touch() {}
}
