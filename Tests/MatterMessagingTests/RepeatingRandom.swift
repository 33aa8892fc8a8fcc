import MatterCrypto

/// A random source that repeats the bytes it was given, so counters, exchange IDs, node IDs and MRP jitter
/// take values a test can predict.
struct RepeatingRandom: RandomSource {
    let pattern: [UInt8]

    init(_ pattern: [UInt8]) {
        self.pattern = pattern
    }

    func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { pattern[$0 % pattern.count] }
    }
}
