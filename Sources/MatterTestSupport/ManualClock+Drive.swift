import MatterPlatform
import MatterTime
import Synchronization

/// Advances `clock` by `step` at a time until `work` is done (or `limit` of virtual time has passed), letting
/// the drivers run between steps (`pause` of real time each, half a millisecond by default); returns its value and the virtual
/// time it was done at, or nil when the limit came first. Driver tests run on it: what they measure is virtual time,
/// precise to one step, whatever the machine's load.
public func drive<Value: Sendable>(
    _ clock: ManualClock, step: Duration = .milliseconds(10), limit: Duration = .seconds(120),
    pause: Duration = .microseconds(500),
    _ work: @escaping @Sendable () async -> Value
) async -> (value: Value, at: Instant)? {
    let result = Mutex<(Value, Instant)?>(nil)
    let task = Task {
        let value = await work()
        result.withLock { $0 = (value, clock.now) }
    }
    let end = clock.now + limit
    while result.withLock({ $0 == nil }) && clock.now < end {
        // Real time for the transports and drivers to act on what the last step woke: the protocol actors run on
        // the event loop, the rest on the cooperative pool, and work passes between them.
        for _ in 0..<4 {
            for _ in 0..<10 { await Task.yield() }
            await EventLoopExecutor.flush()
        }
        try? await Task.sleep(for: pause)
        if result.withLock({ $0 != nil }) { break }
        clock.advance(by: step)
    }
    task.cancel()
    return result.withLock { $0.map { (value: $0.0, at: $0.1) } }
}
