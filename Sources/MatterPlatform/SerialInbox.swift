import Synchronization

/// Elements handled one at a time, in the order delivered, by a task that runs only while some are waiting: a
/// consumer that waits most of its life (a node's reports, a followed node's changes) holds no task while it waits.
/// A suspended task keeps its deepest frames allocated for as long as it lives, about 2 KiB each, which a hub
/// following a thousand nodes would pay several times per node.
public final class SerialInbox<Element: Sendable>: Sendable {
    private struct State {
        var waiting: [Element] = []
        var draining = false
        var closed = false
    }

    private let state = Mutex(State())
    private let executor: (any TaskExecutor)?
    private let handle: @Sendable (Element) async -> Void

    /// `handle` runs for each element in turn, in a task that prefers `executor` (the event loop, for a driver on it).
    public init(preferring executor: (any TaskExecutor)? = nil, handle: @escaping @Sendable (Element) async -> Void) {
        self.executor = executor
        self.handle = handle
    }

    /// Queues `element`, and starts the draining task when none runs. Does nothing once closed.
    public func deliver(_ element: Element) {
        let startsDraining = state.withLock { state in
            guard !state.closed else { return false }
            state.waiting.append(element)
            let starts = !state.draining
            state.draining = true
            return starts
        }
        guard startsDraining else { return }
        Task(executorPreference: executor) { await self.drain() }
    }

    /// Drops what is waiting and every later delivery; an element being handled is finished.
    public func close() {
        state.withLock { state in
            state.closed = true
            state.waiting = []
        }
    }

    private func drain() async {
        while let next = takeNext() { await handle(next) }
    }

    private func takeNext() -> Element? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.draining = false
                return nil
            }
            return state.waiting.removeFirst()
        }
    }
}
