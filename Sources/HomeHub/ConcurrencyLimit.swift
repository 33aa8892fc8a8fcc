import HomeRecords

/// At most `limit` holders at once; the others wait their turn in order. A cancelled waiter leaves the line.
actor ConcurrencyLimit {
    private let limit: Int
    private var holders = 0
    private var waiters: [(id: UInt64, continuation: CheckedContinuation<Void, any Error>)] = []
    private var lastWaiter: UInt64 = 0

    init(_ limit: Int) {
        precondition(limit > 0, "a concurrency limit lets at least one through")
        self.limit = limit
    }

    /// Runs `body` once a place is free, and frees it after.
    func run<Result: Sendable>(_ body: @Sendable () async throws -> Result) async throws -> Result {
        try await enter()
        defer { leave() }
        return try await body()
    }

    private func enter() async throws {
        if holders < limit {
            holders += 1
            return
        }
        lastWaiter += 1
        let id = lastWaiter
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                if Task.isCancelled {
                    continuation.resume(throwing: CancellationError())
                } else {
                    waiters.append((id, continuation))
                }
            }
        } onCancel: {
            Task { await self.cancelWaiter(id) }
        }
    }

    /// The place passes straight to the first waiter, so the count of holders stays as it is.
    private func leave() {
        if waiters.isEmpty {
            holders -= 1
        } else {
            waiters.removeFirst().continuation.resume()
        }
    }

    private func cancelWaiter(_ id: UInt64) {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return }
        waiters.remove(at: index).continuation.resume(throwing: CancellationError())
    }
}
