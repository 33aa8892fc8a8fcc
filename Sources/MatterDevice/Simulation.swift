import MatterNode

/// How a virtual device acts on its own: every `interval` each cluster server may change what it measures or press
/// its buttons, drawing from a generator seeded with `seed` (a test fixes both to replay the same behaviour quickly).
public struct Simulation: Hashable, Sendable {
    public var seed: UInt64
    public var interval: Duration

    public init(seed: UInt64 = UInt64.random(in: .min ... .max), interval: Duration = DeviceTiming.simulationStep) {
        self.seed = seed
        self.interval = interval
    }
}
