import MatterPlatform
import MatterTime
import Synchronization
import Testing

/// On a manual clock: nothing fires until time reaches the deadline, whatever the machine's speed.
@Suite(.timeLimit(.minutes(1))) struct DeadlineTimerTests {
    @Test func firesOnceForItsDeadlineAndNotAfterBeingReplacedOrCancelled() async throws {
        let clock = ManualClock()
        let fired = Mutex<[Instant]>([])
        let (done, finish) = AsyncStream<Void>.makeStream()
        var timer = DeadlineTimer()
        let record: @Sendable (Instant) async -> Void = { deadline in
            fired.withLock { $0.append(deadline) }
            finish.yield()
        }
        let hour = Instant(since: .seconds(3600))
        let soon = Instant(since: .milliseconds(5))
        timer.arm(hour, on: clock, fire: record)
        #expect(timer.deadline == hour)
        timer.arm(hour, on: clock, fire: record)  // already armed for it: left alone
        timer.arm(soon, on: clock, fire: record)  // replaces it
        var iterator = done.makeAsyncIterator()
        await Self.settle(clock, sleepers: 1)
        clock.advance(by: .milliseconds(4))
        #expect(fired.withLock { $0 }.isEmpty, "not before its deadline")
        clock.advance(by: .milliseconds(1))
        #expect(await iterator.next() != nil)
        #expect(fired.withLock { $0 } == [soon])
        let firedHour = timer.fired(hour)
        #expect(!firedHour, "the hour was replaced")
        let firedSoon = timer.fired(soon)
        #expect(firedSoon)
        #expect(timer.deadline == nil)

        let cancelled = Instant(since: .milliseconds(10))
        timer.arm(cancelled, on: clock, fire: record)
        timer.cancel()
        #expect(timer.deadline == nil)
        let later = Instant(since: .milliseconds(20))
        timer.arm(later, on: clock, fire: record)
        await Self.settle(clock, sleepers: 1)
        clock.advance(to: later)
        #expect(await iterator.next() != nil)
        #expect(fired.withLock { $0 } == [soon, later], "a cancelled timer does not fire")
    }

    /// Until `sleepers` tasks wait on the clock (each timer's task reaches its sleep on its own schedule).
    static func settle(_ clock: ManualClock, sleepers: Int) async {
        while clock.sleeperCount < sleepers { await Task.yield() }
    }
}

@Suite(.timeLimit(.minutes(1))) struct ManualClockTests {
    @Test func sleepersWakeWhenTimeReachesTheirDeadline() async throws {
        let clock = ManualClock()
        final class Woke: Sendable {
            let order = Mutex<[Int]>([])
        }
        let woke = Woke()
        var tasks: [Task<Void, any Error>] = []
        for milliseconds in [30, 10, 20] {
            tasks.append(
                Task { [clock, woke] in
                    try await clock.sleep(until: Instant(since: .milliseconds(milliseconds)))
                    woke.order.withLock { $0.append(milliseconds) }
                })
        }
        await DeadlineTimerTests.settle(clock, sleepers: 3)
        #expect(clock.nextDeadline == Instant(since: .milliseconds(10)))
        clock.advance(by: .milliseconds(25))
        try await tasks[1].value
        try await tasks[2].value
        #expect(Set(woke.order.withLock { $0 }) == [10, 20])
        #expect(clock.now == Instant(since: .milliseconds(25)) && clock.sleeperCount == 1)
        tasks[0].cancel()
        await #expect(throws: CancellationError.self) { try await tasks[0].value }
        #expect(clock.sleeperCount == 0)
        // A deadline already past returns at once.
        try await clock.sleep(until: .zero)
    }
}
