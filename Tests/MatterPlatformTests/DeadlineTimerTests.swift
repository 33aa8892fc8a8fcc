import MatterPlatform
import Synchronization
import Testing

@Suite struct DeadlineTimerTests {
    @Test func firesOnceForItsDeadlineAndNotAfterBeingReplacedOrCancelled() async throws {
        let fired = Mutex<[Int]>([])
        let (done, finish) = AsyncStream<Void>.makeStream()
        var timer = DeadlineTimer<Int>()
        let record: @Sendable (Int) async -> Void = { deadline in
            fired.withLock { $0.append(deadline) }
            finish.yield()
        }
        timer.arm(1, after: .seconds(3600), fire: record)
        #expect(timer.deadline == 1)
        timer.arm(1, after: .zero, fire: record)  // already armed for 1: left alone, still an hour away
        timer.arm(2, after: .zero, fire: record)  // replaces 1
        var iterator = done.makeAsyncIterator()
        // Bounded: a timer that never fires ends the stream, failing the expectations instead of hanging.
        let limit = Task {
            try? await Task.sleep(for: .seconds(10))
            finish.finish()
        }
        defer { limit.cancel() }
        #expect(await iterator.next() != nil)
        #expect(fired.withLock { $0 } == [2])
        let firedOne = timer.fired(1)
        #expect(!firedOne, "1 was replaced")
        let firedTwo = timer.fired(2)
        #expect(firedTwo)
        #expect(timer.deadline == nil)

        timer.arm(3, after: .milliseconds(1), fire: record)
        timer.cancel()
        #expect(timer.deadline == nil)
        timer.arm(4, after: .zero, fire: record)
        #expect(await iterator.next() != nil)
        #expect(fired.withLock { $0 } == [2, 4], "a cancelled timer does not fire")
    }
}
