import Synchronization

/// The one clock of every driver (transport, mDNS, node connections, subscriptions, the commissioner, the virtual
/// device): what time it is, as an `Instant`, and a wait until a deadline. The system clock in a process; a
/// `ManualClock` a test advances by hand, so drivers run on virtual time, deterministically, in milliseconds.
public protocol DriverClock: Sendable {
    var now: Instant { get }
    /// Returns once `deadline` has come (at once when it has passed); throws `CancellationError` when the task is
    /// cancelled first.
    func sleep(until deadline: Instant) async throws
}

extension DriverClock {
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now + duration)
    }
}

/// The monotonic clock of the machine (`ContinuousClock`: it keeps counting while the machine sleeps), with its
/// origin at the process's first use of it, so every driver of the process shares one timeline.
public struct SystemClock: DriverClock {
    private static let origin = ContinuousClock.now

    public init() {}

    public var now: Instant {
        let (seconds, attoseconds) = (ContinuousClock.now - Self.origin).components
        return Instant(
            nanoseconds: UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000))
    }

    public func sleep(until deadline: Instant) async throws {
        let delay = deadline - now
        guard delay > .zero else {
            try Task.checkCancellation()
            return
        }
        try await Task.sleep(for: delay)
    }
}

/// Virtual time: `now` moves only when the test calls `advance`, and each sleeper wakes, in deadline order, when time
/// reaches its deadline. Starts at `.zero`.
public final class ManualClock: DriverClock {
    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant.zero
        var sleepers: [UInt64: Sleeper] = [:]
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }

    /// How many tasks wait on the clock: a test's way to see that the drivers have settled on their next deadline.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// The earliest deadline anyone waits for.
    public var nextDeadline: Instant? { state.withLock { $0.sleepers.values.map(\.deadline).min() } }

    public func sleep(until deadline: Instant) async throws {
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow: Bool = state.withLock { state in
                    guard deadline > state.now, !Task.isCancelled else { return true }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return false
                }
                if resumeNow {
                    if Task.isCancelled {
                        continuation.resume(throwing: CancellationError())
                    } else {
                        continuation.resume()
                    }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking every sleeper whose deadline it reaches, earliest first.
    public func advance(by duration: Duration) {
        advance(to: now + duration)
    }

    public func advance(to instant: Instant) {
        let due: [Sleeper] = state.withLock { state in
            if instant > state.now { state.now = instant }
            let due = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }
}
