/// A point in time for the sans-IO state machines, in nanoseconds since an origin the driver chooses (its
/// monotonic clock's start, or zero in a test). The state machines never read a clock: every input carries `now`.
public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
    public var nanoseconds: UInt64

    public init(nanoseconds: UInt64) {
        self.nanoseconds = nanoseconds
    }

    public static let zero = Instant(nanoseconds: 0)

    /// Saturates at the ends of the clock instead of trapping.
    public func advanced(by duration: Duration) -> Instant {
        let delta = duration.saturatingNanoseconds
        if delta >= 0 {
            let (sum, overflow) = nanoseconds.addingReportingOverflow(UInt64(delta))
            return Instant(nanoseconds: overflow ? .max : sum)
        }
        let magnitude = delta.magnitude
        return Instant(nanoseconds: nanoseconds > magnitude ? nanoseconds - magnitude : 0)
    }

    public func duration(to other: Instant) -> Duration {
        if other.nanoseconds >= nanoseconds {
            return .nanoseconds(Int64(clamping: other.nanoseconds - nanoseconds))
        }
        return .nanoseconds(-Int64(clamping: nanoseconds - other.nanoseconds))
    }

    public static func + (instant: Instant, duration: Duration) -> Instant {
        instant.advanced(by: duration)
    }

    public static func - (later: Instant, earlier: Instant) -> Duration {
        earlier.duration(to: later)
    }

    public static func < (lhs: Instant, rhs: Instant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    public var description: String {
        "\(nanoseconds / 1_000_000).\(String(nanoseconds % 1_000_000 / 1_000).leftPadded(to: 3)) ms"
    }
}

extension Duration {
    /// The duration in whole nanoseconds, clamped to what an Int64 holds.
    public var saturatingNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (wholeSeconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, sumOverflow) = wholeSeconds.addingReportingOverflow(attoseconds / 1_000_000_000)
        if sumOverflow { return seconds < 0 ? .min : .max }
        return sum
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}

extension Instant {
    /// The instant `duration` after the origin.
    public init(since duration: Duration) {
        self = Instant.zero + duration
    }
}
