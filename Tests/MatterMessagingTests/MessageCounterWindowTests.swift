import MatterTestSupport
import Testing

@testable import MatterMessaging

@Suite("MessageCounterWindow")
struct MessageCounterWindowTests {
    private static let allPolicies: [MessageCounterWindow.Policy] = [.secureUnicast, .group, .unsecured]

    @Test(arguments: allPolicies)
    func acceptsInOrderCountersOnceEach(policy: MessageCounterWindow.Policy) {
        var window = MessageCounterWindow(policy: policy)
        for counter in UInt32(1000)..<1100 {
            #expect(window.accept(counter) == .new)
            #expect(window.accept(counter) == .duplicate)
        }
        #expect(window.maximumCounter == 1099)
    }

    @Test(arguments: allPolicies)
    func acceptsReorderedCountersInsideTheWindowOnce(policy: MessageCounterWindow.Policy) {
        var window = MessageCounterWindow(policy: policy)
        #expect(window.accept(100) == .new)
        #expect(window.accept(140) == .new)
        #expect(window.accept(139) == .new)
        #expect(window.accept(108) == .new)  // exactly 32 behind the maximum
        #expect(window.accept(108) == .duplicate)
        #expect(window.accept(139) == .duplicate)
        #expect(window.accept(120) == .new)
        #expect(window.maximumCounter == 140)
    }

    @Test(arguments: allPolicies)
    func treatsCountersBeforeTheFirstAsSeen(policy: MessageCounterWindow.Policy) {
        var window = MessageCounterWindow(policy: policy)
        #expect(window.accept(500) == .new)
        #expect(window.accept(499) == .duplicate)
        #expect(window.accept(468) == .duplicate)
    }

    @Test(arguments: allPolicies)
    func aSynchronizedWindowAcceptsEarlierCountersAfterTheFirstArrival(policy: MessageCounterWindow.Policy) {
        var window = MessageCounterWindow(policy: policy, synchronizedTo: 0)
        #expect(window.maximumCounter == 0)
        #expect(window.accept(1_000) == .new)
        #expect(window.accept(999) == .new)
        #expect(window.accept(968) == .new)  // 32 behind the maximum
        #expect(window.accept(999) == .duplicate)
        #expect(window.accept(1_000) == .duplicate)
    }

    @Test func keepsTheOldMaximumAsSeenWhenAdvancing() {
        var window = MessageCounterWindow(policy: .secureUnicast)
        #expect(window.accept(10) == .new)
        #expect(window.accept(15) == .new)
        #expect(window.accept(10) == .duplicate)
        #expect(window.accept(12) == .new)  // between the first counter and the maximum
        #expect(window.accept(9) == .duplicate)  // before the first counter, so counted as seen
        #expect(window.accept(60) == .new)  // a jump past the window forgets the old bitmap
        #expect(window.accept(59) == .new)
        #expect(window.accept(28) == .new)  // 32 behind 60
    }

    @Test func secureUnicastRejectsEverythingBehindTheWindow() {
        var window = MessageCounterWindow(policy: .secureUnicast)
        #expect(window.accept(1000) == .new)
        #expect(window.accept(967) == .duplicate)  // 33 behind
        #expect(window.accept(0) == .duplicate)
        // No rollover: a small counter after a large one is old, not wrapped.
        #expect(window.accept(.max) == .new)
        #expect(window.accept(2) == .duplicate)
        #expect(window.maximumCounter == .max)
    }

    @Test func groupRollsOverButRejectsEverythingBehindTheWindow() {
        var window = MessageCounterWindow(policy: .group)
        #expect(window.accept(.max - 1) == .new)
        #expect(window.accept(2) == .new)  // wrapped: 4 ahead modulo 2^32
        #expect(window.maximumCounter == 2)
        #expect(window.accept(.max) == .new)  // 3 behind, inside the window
        #expect(window.accept(.max - 1) == .duplicate)
        #expect(window.accept(2 &+ (1 << 31)) == .duplicate)  // 2^31 ahead counts as behind
        #expect(window.accept(1_000_000) == .new)
        #expect(window.accept(999_967) == .duplicate)
    }

    @Test func unsecuredResetsWhenACounterFallsBehindTheWindow() {
        var window = MessageCounterWindow(policy: .unsecured)
        #expect(window.accept(1_000_000) == .new)
        #expect(window.accept(5) == .new)  // the peer restarted with a fresh counter
        #expect(window.maximumCounter == 5)
        #expect(window.accept(5) == .duplicate)
        #expect(window.accept(4) == .new)  // nothing before the reset is remembered
        #expect(window.accept(1_000_000) == .new)
    }

    /// Checks the bitmap against a plain set-based reading of §4.5.5 on a stream that advances with jitter,
    /// so counters arrive late, early, twice, and too late.
    @Test(arguments: [MessageCounterWindow.Policy.secureUnicast, .group])
    func matchesASetBasedModelOnAJitteredStream(policy: MessageCounterWindow.Policy) {
        var window = MessageCounterWindow(policy: policy)
        var generator = SplitMix64(seed: 0xC0FFEE)
        var accepted: Set<UInt32> = []
        var first: UInt32?
        var maximum: UInt32 = 0
        var newCount = 0
        for step in UInt32(0)..<5_000 {
            let counter = 10_000 + step + UInt32(generator.below(48)) - 24
            let expectedNew: Bool
            if let first {
                let insideWindow = counter < maximum && maximum - counter <= 32 && counter > first
                expectedNew = counter > maximum || (insideWindow && !accepted.contains(counter))
            } else {
                expectedNew = true
            }
            let verdict = window.accept(counter)
            #expect(verdict == (expectedNew ? .new : .duplicate), "counter \(counter) at step \(step)")
            if expectedNew {
                first = first ?? counter
                maximum = max(maximum, counter)
                accepted.insert(counter)
                newCount += 1
            }
        }
        #expect(newCount > 2_000)
    }
}
