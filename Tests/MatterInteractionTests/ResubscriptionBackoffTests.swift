import MatterTestSupport
import Testing

@testable import MatterInteraction

@Suite struct ResubscriptionBackoffTests {
    @Test func ceilingsGrowByHalfFromOneSecondUpToFiveMinutes() {
        let ceilings = (0...4).map { ResubscriptionBackoff.ceiling(afterFailedAttempts: $0) }
        #expect(
            ceilings == [
                .seconds(1), .milliseconds(1500), .milliseconds(2250), .milliseconds(3375), .microseconds(5_062_500),
            ])
        // 1.5^14 ≈ 292 s is the last ceiling below the cap; 1.5^15 ≈ 438 s is capped.
        #expect(ResubscriptionBackoff.ceiling(afterFailedAttempts: 14) < .seconds(300))
        #expect(ResubscriptionBackoff.ceiling(afterFailedAttempts: 14) > .seconds(291))
        #expect(ResubscriptionBackoff.ceiling(afterFailedAttempts: 15) == .seconds(300))
        #expect(ResubscriptionBackoff.ceiling(afterFailedAttempts: Int.max) == .seconds(300))
    }

    @Test func delaysStayInTheUpperHalfOfEachCeilingAndCountAttempts() {
        var generator = SplitMix64(seed: 42)
        var backoff = ResubscriptionBackoff()
        for attempt in 0..<20 {
            let ceiling = ResubscriptionBackoff.ceiling(afterFailedAttempts: attempt)
            let delay = backoff.nextDelay(using: &generator)
            #expect(
                delay >= ceiling / 2 && delay <= ceiling,
                "attempt \(attempt): \(delay) outside [\(ceiling / 2), \(ceiling)]")
        }
        #expect(backoff.failedAttempts == 20)
    }

    @Test func jitterSpreadsDevicesLostTogether() {
        var generator = SplitMix64(seed: 7)
        let delays = (0..<50).map { _ in
            var backoff = ResubscriptionBackoff()
            return backoff.nextDelay(using: &generator)
        }
        #expect(Set(delays).count > 40)
    }

    @Test func resetStartsOverFromTheBase() {
        var generator = SplitMix64(seed: 1)
        var backoff = ResubscriptionBackoff()
        for _ in 0..<10 { _ = backoff.nextDelay(using: &generator) }
        backoff.reset()
        #expect(backoff.failedAttempts == 0)
        #expect(backoff.nextDelay(using: &generator) <= .seconds(1))
    }
}
