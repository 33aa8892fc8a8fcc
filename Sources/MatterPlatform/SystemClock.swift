import MatterTime

/// The machine's monotonic clock, as the runtime's event loop keeps it: `now` on CLOCK_BOOTTIME from the process's
/// first use, and every scheduled action a timer of the one loop. The clock of every driver outside the tests.
public struct SystemClock: DriverClock {
    public init() {}

    public var now: Instant { EventLoop.now }

    public func schedule(at deadline: Instant, _ action: @escaping @Sendable () -> Void) -> ClockTimer {
        EventLoop.shared.schedule(at: deadline, action)
    }
}
