import MatterCrypto
import Testing

@testable import MatterMessaging

/// The group message counter reserves a block ahead and resumes at the block's end after a restart, so no counter is
/// ever used twice.
@Suite struct GroupMessageCounterTests {
    @Test func aFreshCounterReservesBeforeItsFirstMessageAndAgainWhenTheBlockIsSpent() {
        var counter = GroupMessageCounter(restoredAt: 500)
        let first = counter.take()
        #expect(first.counter == 500)
        #expect(first.reserve == 500 + GroupMessageCounter.reservation)
        for expected in 501..<(500 + GroupMessageCounter.reservation) {
            let next = counter.take()
            #expect(next.counter == expected)
            #expect(next.reserve == nil)
        }
        let blockEnd = counter.take()
        #expect(blockEnd.counter == 500 + GroupMessageCounter.reservation)
        #expect(blockEnd.reserve == 500 + 2 * GroupMessageCounter.reservation)
    }

    /// A restart resumes at what was stored: past every counter the previous run may have used.
    @Test func aRestartedCounterNeverRepeats() {
        var before = GroupMessageCounter(restoredAt: 7)
        var used: Set<UInt32> = []
        var stored: UInt32 = 7
        for _ in 0..<10 {
            let taken = before.take()
            if let reserve = taken.reserve { stored = reserve }
            used.insert(taken.counter)
        }
        var after = GroupMessageCounter(restoredAt: stored)
        #expect(!used.contains(after.take().counter))
    }

    @Test func countersRollOverAtTheTop() {
        var counter = GroupMessageCounter(restoredAt: .max)
        #expect(counter.take().counter == .max)
        #expect(counter.take().counter == 0)
    }

    @Test func theFirstCounterIsDrawnInTheSpecsRange() {
        let counter = GroupMessageCounter(random: SystemRandom())
        #expect((1...(1 << 28)).contains(counter.next))
    }
}
