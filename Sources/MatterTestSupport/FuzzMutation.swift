/// Mutations of a valid input that steer a decoder into its edge cases: bit flips, cuts, overwrites and
/// insertions, optionally of bytes the caller knows to be interesting (container starts, long lengths…).
public enum FuzzMutation {
    public static func mutate(_ seed: [UInt8], interesting: [UInt8] = [], using generator: inout SplitMix64) -> [UInt8]
    {
        var bytes = seed
        for _ in 0...generator.below(3) {
            let position = generator.below(bytes.count + 1)
            let replacement =
                interesting.isEmpty || generator.below(2) == 0
                ? UInt8(truncatingIfNeeded: generator.next())
                : interesting[generator.below(interesting.count)]
            switch generator.below(4) {
            case 0 where position < bytes.count:
                bytes[position] ^= UInt8(1 << generator.below(8))
            case 1 where !bytes.isEmpty:
                bytes.removeLast(generator.below(bytes.count) + 1)
            case 2 where position < bytes.count:
                bytes[position] = replacement
            default:
                bytes.insert(replacement, at: position)
            }
        }
        return bytes
    }
}
