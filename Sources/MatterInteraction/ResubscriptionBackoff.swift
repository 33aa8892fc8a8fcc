// Matter Core §8.5 (resubscription after a lost subscription is the client's): how long to wait before each attempt.
/// The delays before successive resubscription attempts: a ceiling of min(maximum, base·1.5^failures) with a random
/// delay drawn from its upper half (numbers and reasons in `InteractionTiming`).
public struct ResubscriptionBackoff: Hashable, Sendable {
    /// Attempts that failed since the last success.
    public private(set) var failedAttempts = 0

    public init() {}

    /// The largest delay after this many failed attempts: 1 s, 1.5 s, 2.25 s, 3.375 s, … up to 300 s.
    public static func ceiling(afterFailedAttempts attempts: Int) -> Duration {
        let base = InteractionTiming.resubscribeBaseDelay
        let maximum = InteractionTiming.resubscribeMaximumDelay
        var ceiling = base
        for _ in 0..<max(0, attempts) {
            ceiling = ceiling * InteractionTiming.resubscribeGrowthFactor
            if ceiling >= maximum { return maximum }
        }
        return ceiling
    }

    /// The delay before the next attempt, counting it as failed until `reset()` says it succeeded.
    public mutating func nextDelay(using generator: inout some RandomNumberGenerator) -> Duration {
        let ceiling = Self.ceiling(afterFailedAttempts: failedAttempts)
        failedAttempts += 1
        let floor = InteractionTiming.resubscribeJitterFloor
        return ceiling * (floor + (1 - floor) * Double.random(in: 0...1, using: &generator))
    }

    /// The subscription was re-established: the next loss starts from the base delay again.
    public mutating func reset() {
        failedAttempts = 0
    }
}
