import MatterNode

/// The generator behind everything a virtual device does on its own (sensor drift, contact flips, button presses):
/// SplitMix64 (Steele, Lea and Flood, OOPSLA 2014), so one seed always gives the same sequence and a test can replay it.
public struct SimulationRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
