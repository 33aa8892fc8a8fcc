import Foundation
import HomeHub
import MatterPlatform
import Synchronization

/// Tells live queries that the home may have changed: at once for writes made through this `Home`, and, while anyone
/// listens, for writes by other processes or connections sharing the state directory: the directory is watched
/// (`FileChangeWatch`), and when a file in it is written the store's change counter says whether the home changed.
/// Nothing is read while nothing is written. A listener may hear of a change that leaves its query's result as it
/// was; the queries compare results, so nothing is emitted twice.
final class ChangeFeed: Sendable {
    private struct State {
        var listeners: [Int: AsyncStream<Void>.Continuation] = [:]
        var nextID = 0
        var watch: StoreWatch?
    }

    /// Follows the store's change counter from file change notices: the last counter seen, and the watch.
    private final class StoreWatch: Sendable {
        private let fileWatch: FileChangeWatch

        /// The baseline is read before the first listener reads its result, so no change after that read goes
        /// unnoticed. Nil when the directory cannot be watched (inotify unavailable or out of watches).
        init?(store: HubStore, onChange: @escaping @Sendable () -> Void) {
            let last = Mutex(try? store.changeCounter())
            let directory = (store.path as NSString).deletingLastPathComponent
            do {
                // The handler runs on the watch's own queue, so the store is read off the cooperative pool.
                fileWatch = try FileChangeWatch(directory: directory.isEmpty ? "." : directory) {
                    let current = try? store.changeCounter()
                    let changed = last.withLock { seen in
                        defer { seen = current }
                        return seen != current
                    }
                    if changed { onChange() }
                }
            } catch {
                return nil
            }
        }
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
            if state.watch == nil { state.watch = StoreWatch(store: store) { [weak self] in self?.notify() } }
            return id
        }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return ChangeListener(stream: stream) { [weak self] in self?.remove(id) }
    }

    /// How many listeners hold a place, and whether the store is being watched for them: what a released or
    /// cancelled query must give back.
    var activity: (listeners: Int, watching: Bool) {
        state.withLock { ($0.listeners.count, $0.watch != nil) }
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
            if state.listeners.isEmpty { state.watch = nil }
            return removed
        }
        // Outside the lock: finishing calls onTermination, which comes back here.
        removed?.finish()
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
