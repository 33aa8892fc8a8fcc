import Testing

@testable import MatterMessaging

@Suite("MRPBackoff")
struct MRPBackoffTests {
    private func schedule(base: Duration, jitter: Double) -> [Duration] {
        (0..<5).map { MRPBackoff.timeout(baseInterval: base, priorTransmissions: $0, jitter: jitter) }
    }

    // §4.12.2.1 by hand: 300 ms × 1.1 = 330 ms for the first two waits, then × 1.6 each time.
    @Test func followsTheSpecScheduleWithoutJitter() {
        #expect(
            schedule(base: .milliseconds(300), jitter: 0) == [
                .microseconds(330_000), .microseconds(330_000), .microseconds(528_000),
                .microseconds(844_800), .microseconds(1_351_680),
            ])
        #expect(
            schedule(base: .milliseconds(500), jitter: 0) == [
                .microseconds(550_000), .microseconds(550_000), .microseconds(880_000),
                .microseconds(1_408_000), .microseconds(2_252_800),
            ])
    }

    // Jitter 0.5 adds 0.5 × 25% = 12.5%.
    @Test func addsJitterOnTop() {
        #expect(
            schedule(base: .milliseconds(500), jitter: 0.5) == [
                .microseconds(618_750), .microseconds(618_750), .microseconds(990_000),
                .microseconds(1_584_000), .microseconds(2_534_400),
            ])
        let largest = MRPBackoff.timeout(baseInterval: .milliseconds(300), priorTransmissions: 0, jitter: 0.999_999)
        #expect(largest < .microseconds(412_500) && largest > .microseconds(412_499))
    }

    @Test func drawsJitterFromThirtyTwoLittleEndianBits() {
        #expect(MRPBackoff.jitter(from: RepeatingRandom([0x00])) == 0)
        #expect(MRPBackoff.jitter(from: RepeatingRandom([0x00, 0x00, 0x00, 0x80])) == 0.5)
        #expect(MRPBackoff.jitter(from: RepeatingRandom([0x00, 0x00, 0x00, 0x40])) == 0.25)
        #expect(MRPBackoff.jitter(from: RepeatingRandom([0xFF])) == Double(UInt32.max) / 0x1p32)
    }

    @Test func doesNotOverflowForAbsurdInputs() {
        #expect(
            MRPBackoff.timeout(baseInterval: .seconds(3600), priorTransmissions: 200, jitter: 0.5)
                == .nanoseconds(Int64.max))
    }
}
