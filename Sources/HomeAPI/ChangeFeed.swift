import HomeHub
import Synchronization

/// Tells live queries that the home may have changed: at once for writes made through this `Home`, and, while anyone
/// listens, by polling the store's change counter every `HomeTiming.changePoll` for writes by other processes or
/// connections sharing the state directory. A listener may hear of a change that leaves its query's result as it was;
/// the queries compare results, so nothing is emitted twice.
final class ChangeFeed: Sendable {
    private struct State {
        var listeners: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextID = 0
        var poller: Task<Void, Never>?
    }

    private let store: HubStore
    private let state = Mutex(State())

    init(store: HubStore) {
        self.store = store
    }

    /// A new listener. It holds its place until it is released or its task is cancelled.
    func listen() -> ChangeListener {
        // One pending notice is enough: the listener re-reads everything anyway.
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { state in
            let id = state.nextID
            state.nextID += 1
            state.listeners[id] = continuation
            if state.poller == nil { state.poller = startPolling() }
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return ChangeListener(stream: stream) { [weak self] in self?.remove(id) }
    }

    /// How many listeners hold a place, and whether the store is being polled for them: what a released or cancelled
    /// query must give back.
    var activity: (listeners: Int, polling: Bool) {
        state.withLock { ($0.listeners.count, $0.poller != nil) }
    }

    /// Something in the home changed: every listener hears of it.
    func notify() {
        for continuation in state.withLock({ Array($0.listeners.values) }) {
            continuation.yield()
        }
    }

    private func remove(_ id: Int) {
        let removed = state.withLock { state in
            let removed = state.listeners.removeValue(forKey: id)
            if state.listeners.isEmpty {
                state.poller?.cancel()
                state.poller = nil
            }
            return removed
        }
        // Outside the lock: finishing calls onTermination, which comes back here.
        removed?.finish()
    }

    /// The baseline is read before the first listener reads its result, so no change after that read goes unnoticed.
    private func startPolling() -> Task<Void, Never> {
        let store = store
        let baseline = try? store.changeCounter()
        return Task { [weak self] in
            var last = baseline
            while !Task.isCancelled {
                try? await Task.sleep(for: HomeTiming.changePoll)
                let current = try? store.changeCounter()
                if current != last {
                    last = current
                    self?.notify()
                }
            }
        }
    }
}

/// One listener's notices. Releasing it stops them.
final class ChangeListener {
    private var notices: AsyncStream<Void>.Iterator
    private let release: @Sendable () -> Void

    init(stream: AsyncStream<Void>, release: @escaping @Sendable () -> Void) {
        notices = stream.makeAsyncIterator()
        self.release = release
    }

    deinit {
        release()
    }

    /// Waits for the next notice; false when the listener's task was cancelled.
    func next() async -> Bool {
        await notices.next() != nil
    }
}
