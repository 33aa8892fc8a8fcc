import MatterPlatform
import MatterTestSupport
import MatterTime
import Synchronization
import Testing

@Suite struct TimerQueueTests {
    /// Against a plain sorted list: seeded random schedules, cancels and pops, enough to force the heap's rebuild.
    @Test(arguments: [1, 2, 3] as [UInt64]) func popsWhatASortedListWouldInOrder(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var queue = TimerQueue<Int>()
        var model: [(deadline: UInt64, value: Int, id: TimerQueue<Int>.ID)] = []
        var now: UInt64 = 0
        for value in 0..<5_000 {
            switch random.next() % 10 {
            case 0..<5:
                let deadline = now + random.next() % 1_000
                let id = queue.schedule(at: Instant(nanoseconds: deadline), value)
                model.append((deadline, value, id))
            case 5..<9:
                guard !model.isEmpty else { continue }
                let victim = model.remove(at: Int(random.next() % UInt64(model.count)))
                let first = queue.cancel(victim.id)
                let second = queue.cancel(victim.id)
                #expect(first && !second, "a second cancel finds nothing")
            default:
                now += random.next() % 200
                let expected = model.filter { $0.deadline <= now }
                    .sorted { ($0.deadline, $0.value) < ($1.deadline, $1.value) }.map(\.value)
                model.removeAll { $0.deadline <= now }
                let due = queue.popDue(at: Instant(nanoseconds: now))
                #expect(due == expected)
            }
            #expect(queue.count == model.count)
            #expect(queue.nextDeadline?.nanoseconds == model.map(\.deadline).min())
        }
    }

    @Test func aPoppedActionCannotBeCancelled() {
        var queue = TimerQueue<String>()
        let id = queue.schedule(at: Instant(nanoseconds: 5), "due")
        let early = queue.popDue(at: Instant(nanoseconds: 4))
        let due = queue.popDue(at: Instant(nanoseconds: 5))
        let cancelled = queue.cancel(id)
        #expect(early.isEmpty && due == ["due"] && !cancelled)
        #expect(queue.nextDeadline == nil && queue.count == 0)
    }
}

/// The runtime's own timers, on the real clock: order and cancellation only, never how long anything took.
@Suite(.timeLimit(.minutes(1))) struct SystemClockTests {
    @Test func actionsRunInDeadlineOrderAndACancelledOneNever() async throws {
        let clock = SystemClock()
        let ran = Mutex<[Int]>([])
        let (done, finish) = AsyncStream<Void>.makeStream()
        let start = clock.now
        let record: @Sendable (Int) -> @Sendable () -> Void = { value in
            {
                let count = ran.withLock { ran in
                    ran.append(value)
                    return ran.count
                }
                if count == 3 { finish.finish() }
            }
        }
        _ = clock.schedule(at: start + .milliseconds(30), record(30))
        let cancelled = clock.schedule(at: start + .milliseconds(20), record(20))
        _ = clock.schedule(at: start + .milliseconds(10), record(10))
        _ = clock.schedule(at: start + .milliseconds(40), record(40))
        cancelled.cancel()
        for await _ in done {}
        #expect(ran.withLock { $0 } == [10, 30, 40])
        #expect(clock.now >= start + .milliseconds(40))
    }

    @Test func aDeadlineAlreadyPastRunsAtOnceOnTheCallersThread() {
        let clock = SystemClock()
        let ran = Mutex(false)
        _ = clock.schedule(at: clock.now) { ran.withLock { $0 = true } }
        #expect(ran.withLock { $0 })
    }

    @Test func aSleepEndsAtItsDeadlineOrWhenCancelled() async throws {
        let clock = SystemClock()
        let deadline = clock.now + .milliseconds(5)
        try await clock.sleep(until: deadline)
        #expect(clock.now >= deadline)
        let sleeper = Task { try await clock.sleep(for: .seconds(3600)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}
