/// Waits (polling every 50 ms of real time) until `condition` holds or `limit` passes; returns whether it held. For
/// what a test cannot await directly: another process's or actor's state catching up.
public func eventually(within limit: Duration, _ condition: () async -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    while clock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(50))
    }
    return await condition()
}
