import Synchronization

/// The one clock of every driver (transport, mDNS, node connections, subscriptions, the commissioner, the virtual
/// device): what time it is, as an `Instant`, and an action run when a deadline comes. The runtime's `SystemClock`
/// in a process (its event loop's timers); a `ManualClock` a test advances by hand, so drivers run on virtual time,
/// deterministically, in milliseconds.
public protocol DriverClock: Sendable {
    var now: Instant { get }
    /// Calls `action` once `deadline` has come, on the clock's own thread, unless the returned timer is cancelled
    /// first; a deadline already past calls it at once, on the caller's thread. Arming and cancelling take no task
    /// and no thread: `action` should only hand the work on (start a task, resume a continuation).
    func schedule(at deadline: Instant, _ action: @escaping @Sendable () -> Void) -> ClockTimer
}

/// A scheduled action that has not run yet can be cancelled; cancelling later does nothing.
public struct ClockTimer: Sendable {
    private let cancelAction: @Sendable () -> Void

    public init(cancel: @escaping @Sendable () -> Void) {
        cancelAction = cancel
    }

    /// A timer whose action has already run.
    public static let done = ClockTimer {}

    public func cancel() { cancelAction() }
}

extension DriverClock {
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }

    /// Returns once `deadline` has come (at once when it has passed); throws `CancellationError` when the task is
    /// cancelled first, and then the clock forgets the wait.
    public func sleep(until deadline: Instant) async throws {
        let wait = SleepWait()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let cancelledAlready = wait.state.withLock { state in
                    if !state.cancelled { state.continuation = continuation }
                    return state.cancelled
                }
                if cancelledAlready { return continuation.resume(throwing: CancellationError()) }
                let timer = schedule(at: deadline) { wait.takeContinuation()?.resume() }
                // Cancelled or woken while scheduling: the timer has nothing left to do.
                let finished = wait.state.withLock { state in
                    if state.continuation == nil { return true }
                    state.timer = timer
                    return false
                }
                if finished { timer.cancel() }
            }
        } onCancel: {
            let (continuation, timer) = wait.state.withLock { state in
                state.cancelled = true
                defer { state.continuation = nil }
                return (state.continuation, state.timer)
            }
            timer?.cancel()
            continuation?.resume(throwing: CancellationError())
        }
    }
}

/// One sleep's continuation, held until its timer or its cancellation takes it, whichever comes first.
private final class SleepWait: Sendable {
    struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var timer: ClockTimer?
        var cancelled = false
    }

    let state = Mutex(State())

    func takeContinuation() -> CheckedContinuation<Void, any Error>? {
        state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
    }
}

/// Virtual time: `now` moves only when the test calls `advance`, and each scheduled action (each sleeper) runs, in
/// deadline order, when time reaches its deadline. Starts at `.zero`.
public final class ManualClock: DriverClock {
    private struct State {
        var now = Instant.zero
        var timers = TimerQueue<@Sendable () -> Void>()
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }

    /// How many sleeps and scheduled actions wait on the clock: a test's way to see that the drivers have settled
    /// on their next deadline.
    public var sleeperCount: Int { state.withLock { $0.timers.count } }

    /// The earliest deadline anyone waits for.
    public var nextDeadline: Instant? { state.withLock { $0.timers.nextDeadline } }

    public func schedule(at deadline: Instant, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        let id: TimerQueue<@Sendable () -> Void>.ID? = state.withLock { state in
            deadline > state.now ? state.timers.schedule(at: deadline, action) : nil
        }
        guard let id else {
            action()
            return .done
        }
        return ClockTimer { [self] in _ = state.withLock { $0.timers.cancel(id) } }
    }

    /// Moves time forward by `duration`, running every action whose deadline it reaches, earliest first.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    public func advance(to instant: Instant) {
        let due = state.withLock { state in
            if instant > state.now { state.now = instant }
            return state.timers.popDue(at: state.now)
        }
        for action in due { action() }
    }
}
