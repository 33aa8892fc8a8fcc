import MatterTime

/// The one timer of a sans-IO machine's driver: armed for the machine's next deadline on the driver's clock, left
/// alone when already armed for it, replaced when the deadline moves, cancelled when nothing is due. When it comes,
/// a task calls `fire` with the deadline it was armed for; the driver asks `fired(_:)` whether that is still the
/// armed one. Arming costs a clock timer, not a task: only a firing starts one.
public struct DeadlineTimer: Sendable {
    private var armed: (deadline: Instant, timer: ClockTimer)?

    public init() {}

    /// The deadline armed, if any.
    public var deadline: Instant? { armed?.deadline }

    /// Arms for `deadline` on `clock`; `fire` runs then, unless the timer was re-armed or cancelled. A driver on
    /// the event loop passes `EventLoopExecutor.preferred`, so the firing task starts there, not on the pool.
    public mutating func arm(
        _ deadline: Instant, on clock: any DriverClock, preferring executor: (any TaskExecutor)? = nil,
        fire: @escaping @Sendable (Instant) async -> Void
    ) {
        if let armed, armed.deadline == deadline { return }
        armed?.timer.cancel()
        // Recorded before scheduling: a deadline already past fires at once, and its firing must find it armed.
        armed = (deadline, .done)
        armed?.timer = clock.schedule(at: deadline) { Task(executorPreference: executor) { await fire(deadline) } }
    }

    public mutating func cancel() {
        armed?.timer.cancel()
        armed = nil
    }

    /// Whether `deadline` is the one armed (so the firing is current); the timer is then disarmed.
    public mutating func fired(_ deadline: Instant) -> Bool {
        guard let armed, armed.deadline == deadline else { return false }
        self.armed = nil
        return true
    }
}
