import HomeRecords
import MatterDiscovery

/// The devices a commissioning's discovery found for its payload, in the order they were resolved: the first is
/// used at once, the others wait as fallbacks for a PASE that fails in a way another device could fix (it does not
/// answer, or its passcode differs: two devices may share a short discriminator).
actor CommissionableCandidates {
    private var found: [CommissionableNode] = []
    private var handedOut = 0
    private var finished = false
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var consumer: Task<Void, Never>?

    init(_ matches: AsyncThrowingStream<CommissionableNode, any Error>) {
        Task { await self.consume(matches) }
    }

    private func consume(_ matches: AsyncThrowingStream<CommissionableNode, any Error>) {
        consumer = Task {
            do {
                for try await node in matches { self.add(node) }
            } catch {}
            self.finish()
        }
    }

    private func add(_ node: CommissionableNode) {
        found.append(node)
        wake()
    }

    private func finish() {
        finished = true
        wake()
    }

    private func wake() {
        let waiting = waiters
        waiters = []
        for waiter in waiting { waiter.resume() }
    }

    /// The next device not handed out yet, waiting for discovery to find one; nil once discovery has ended.
    func next() async -> CommissionableNode? {
        while handedOut == found.count && !finished {
            // Looked at again inside the body: entering it can be a hop (see `MatterTransport.receive`).
            await withCheckedContinuation { waiter in
                if handedOut < found.count || finished { waiter.resume() } else { waiters.append(waiter) }
            }
        }
        guard handedOut < found.count else { return nil }
        handedOut += 1
        return found[handedOut - 1]
    }

    /// Ends the discovery: no more fallbacks are needed.
    func stop() {
        consumer?.cancel()
        finish()
    }
}
