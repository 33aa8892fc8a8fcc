import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// A live query over the home: its devices, rooms or structures.
/// - `list()` is a snapshot: the first value of `batched()`.
/// - `batched()` emits the whole current set when iteration starts and again after every change to it; a change that
///   leaves the set as it was emits nothing.
/// - `stream()` emits each element when iteration starts, then each element that changed or appeared. An element that
///   disappears (a deleted room, a removed device) is not emitted: watch `batched()` to see removals.
/// Sequences end when the consuming task is cancelled, and release what they hold when their iterator goes away.
/// Any number of consumers may iterate at the same time, each with its own sequence.
public struct Query<Element: Identifiable & Hashable & Sendable>: Sendable {
    let model: HomeModel
    /// The changes after which the result is read again.
    let scope: HomeModel.Scope
    /// The result now, from memory.
    let read: @Sendable () throws(HomeError) -> Set<Element>

    public func list() async throws(HomeError) -> Set<Element> {
        var batches = QueryBatches(query: self).makeAsyncIterator()
        guard let first = try await batches.next() else {
            throw HomeError(.cancelled, "the query's task was cancelled")
        }
        return first
    }

    public func batched() -> some AsyncSequence<Set<Element>, HomeError> {
        QueryBatches(query: self)
    }

    public func stream() -> some AsyncSequence<Element, HomeError> {
        QueryStream(query: self)
    }
}

/// A query's results over time: the current result first, then one after each batch of changes in its scope (which
/// may repeat it).
struct QueryResults<Element: Identifiable & Hashable & Sendable> {
    private let query: Query<Element>
    private var listener: HomeModel.Changes.Iterator?

    init(query: Query<Element>) {
        self.query = query
    }

    /// nil once the task is cancelled.
    mutating func next() async throws(HomeError) -> Set<Element>? {
        guard !Task.isCancelled else { return nil }
        if listener != nil {
            // Falling behind needs nothing more: the result is read afresh either way.
            guard await listener?.next() != nil, !Task.isCancelled else { return nil }
        } else {
            // Listening starts before the first read, so a change right after that read is heard.
            listener = query.model.changes(query.scope).makeAsyncIterator()
        }
        return try query.read()
    }
}

struct QueryBatches<Element: Identifiable & Hashable & Sendable>: AsyncSequence {
    let query: Query<Element>

    func makeAsyncIterator() -> Iterator {
        Iterator(results: QueryResults(query: query))
    }

    struct Iterator: AsyncIteratorProtocol {
        typealias Failure = HomeError
        var results: QueryResults<Element>
        var last: Set<Element>?

        mutating func next() async throws(HomeError) -> Set<Element>? {
            while let current = try await results.next() {
                if current != last {
                    last = current
                    return current
                }
            }
            return nil
        }
    }
}

struct QueryStream<Element: Identifiable & Hashable & Sendable>: AsyncSequence {
    let query: Query<Element>

    func makeAsyncIterator() -> Iterator {
        Iterator(results: QueryResults(query: query))
    }

    struct Iterator: AsyncIteratorProtocol {
        typealias Failure = HomeError
        var results: QueryResults<Element>
        var known: [Element.ID: Element] = [:]
        var pending: [Element] = []

        mutating func next() async throws(HomeError) -> Element? {
            while pending.isEmpty {
                guard let current = try await results.next() else { return nil }
                pending = current.filter { known[$0.id] != $0 }
                known = Dictionary(current.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            }
            return pending.removeLast()
        }
    }
}
