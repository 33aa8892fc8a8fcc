import Synchronization

/// Reproducible, NOT secure, bytes from a seed (SplitMix64), for tests and simulations.
public final class DeterministicRandom: RandomSource {
    private let state: Mutex<UInt64>

    public init(seed: UInt64) {
        state = Mutex(seed)
    }

    public func bytes(_ count: Int) -> [UInt8] {
        guard count > 0 else { return [] }
        return state.withLock { state in
            var output: [UInt8] = []
            output.reserveCapacity(count)
            while output.count < count {
                var word = Self.nextWord(&state)
                for _ in 0..<min(8, count - output.count) {
                    output.append(UInt8(truncatingIfNeeded: word))
                    word >>= 8
                }
            }
            return output
        }
    }

    /// SplitMix64 (Steele, Lea, Flood 2014): a Weyl sequence scrambled by two multiply-xorshift rounds.
    private static func nextWord(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }
}
