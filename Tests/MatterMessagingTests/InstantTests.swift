import MatterMessaging
import Testing

@Suite("Instant")
struct InstantTests {
    @Test func addsAndSubtractsDurations() {
        let start = Instant(nanoseconds: 1_000_000_000)
        #expect((start + .milliseconds(250)).nanoseconds == 1_250_000_000)
        #expect((start + .milliseconds(-250)).nanoseconds == 750_000_000)
        #expect(Instant(nanoseconds: 1_250_000_000) - start == .milliseconds(250))
        #expect(start - Instant(nanoseconds: 1_250_000_000) == .milliseconds(-250))
        #expect(start < start + .nanoseconds(1))
    }

    @Test func saturatesAtTheEndsOfTheClock() {
        #expect((Instant.zero + .seconds(-1)) == .zero)
        #expect((Instant(nanoseconds: .max - 5) + .seconds(1)).nanoseconds == .max)
        #expect((Instant.zero + .seconds(Int64.max)).nanoseconds == UInt64(Int64.max))
    }

    @Test func describesItselfInMilliseconds() {
        #expect(Instant(nanoseconds: 1_500_000).description == "1.500 ms")
        #expect(Instant(nanoseconds: 5_640_800_000).description == "5640.800 ms")
        #expect(Instant(nanoseconds: 42_000).description == "0.042 ms")
    }
}
