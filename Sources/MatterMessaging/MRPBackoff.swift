import MatterCrypto

// Matter Core §4.12.2.1 Retransmissions (mrpBackoffTime)
/// How long to wait for an acknowledgement before retransmitting.
public enum MRPBackoff {
    /// t = i · MARGIN · BASE^max(0, n − THRESHOLD) · (1 + jitter · JITTER), rounded to the nanosecond.
    /// - Parameters:
    ///   - baseInterval: i, the peer's active or idle interval.
    ///   - priorTransmissions: n, how many times the message was sent before the transmission being timed.
    ///   - jitter: a random value in 0..<1.
    public static func timeout(baseInterval: Duration, priorTransmissions: Int, jitter: Double) -> Duration {
        let exponent = max(0, priorTransmissions - ReliableMessagingConstants.backoffThreshold)
        let factor =
            ReliableMessagingConstants.backoffMargin
            * power(ReliableMessagingConstants.backoffBase, exponent)
            * (1 + jitter * ReliableMessagingConstants.backoffJitter)
        let nanoseconds = (Double(baseInterval.saturatingNanoseconds) * factor).rounded()
        return .nanoseconds(Int64(exactly: nanoseconds) ?? .max)
    }

    /// base^exponent by repeated squaring: at most 63 steps, whatever the exponent.
    private static func power(_ base: Double, _ exponent: Int) -> Double {
        var result = 1.0
        var square = base
        var remaining = exponent
        while remaining > 0 {
            if remaining & 1 == 1 { result *= square }
            square *= square
            remaining >>= 1
        }
        return result
    }

    /// A value uniform in 0..<1 from 32 random bits (little-endian), which resolves far below a nanosecond
    /// of any MRP interval.
    public static func jitter(from random: some RandomSource) -> Double {
        let bits = random.bytes(MemoryLayout<UInt32>.size).reversed().reduce(UInt32(0)) { ($0 << 8) | UInt32($1) }
        return Double(bits) / 0x1p32
    }
}
