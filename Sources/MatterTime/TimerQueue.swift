/// Deadlines waiting to come, earliest first: the bookkeeping under every clock's timers (the event loop's and a
/// manual clock's). Sans-IO: it never reads a clock; `popDue(at:)` is told the time. Scheduling and cancelling are
/// O(log n); a cancelled entry leaves the heap lazily, and the heap is rebuilt once cancelled entries outnumber the
/// live ones, so a driver that re-arms on every message (MRP) does not grow it. Inlinable: it is on every message's
/// path, and unspecialized generic code across modules costs more than the heap itself.
public struct TimerQueue<Action: Sendable>: Sendable {
    public struct ID: Hashable, Sendable {
        @usableFromInline let sequence: UInt64
        @inlinable init(sequence: UInt64) { self.sequence = sequence }
    }

    @usableFromInline struct Entry: Sendable {
        @usableFromInline let deadline: Instant
        @usableFromInline let sequence: UInt64

        @inlinable init(deadline: Instant, sequence: UInt64) {
            self.deadline = deadline
            self.sequence = sequence
        }

        /// Earlier deadline first; for equal deadlines, the one scheduled first.
        @inlinable func precedes(_ other: Entry) -> Bool {
            deadline != other.deadline ? deadline < other.deadline : sequence < other.sequence
        }
    }

    @usableFromInline var heap: [Entry] = []
    @usableFromInline var actions: [UInt64: Action] = [:]
    @usableFromInline var nextSequence: UInt64 = 0

    @inlinable public init() {}

    /// How many actions wait.
    @inlinable public var count: Int { actions.count }

    /// The earliest deadline that waits, if any.
    @inlinable public var nextDeadline: Instant? { heap.first?.deadline }

    @inlinable public mutating func schedule(at deadline: Instant, _ action: Action) -> ID {
        nextSequence += 1
        actions[nextSequence] = action
        push(Entry(deadline: deadline, sequence: nextSequence))
        return ID(sequence: nextSequence)
    }

    /// Removes a waiting action; false when it had already been popped or cancelled.
    @discardableResult
    @inlinable public mutating func cancel(_ id: ID) -> Bool {
        guard actions.removeValue(forKey: id.sequence) != nil else { return false }
        if heap.count > 2 * actions.count + 32 {
            heap = heap.filter { actions[$0.sequence] != nil }
            heap.sort { $0.precedes($1) }  // a sorted array is a valid heap
        }
        dropCancelledTop()
        return true
    }

    /// Removes and returns every action whose deadline is at or before `now`, earliest first.
    @inlinable public mutating func popDue(at now: Instant) -> [Action] {
        var due: [Action] = []
        while let top = heap.first, top.deadline <= now {
            popTop()
            if let action = actions.removeValue(forKey: top.sequence) { due.append(action) }
        }
        dropCancelledTop()
        return due
    }

    // MARK: Binary min-heap

    @inlinable mutating func dropCancelledTop() {
        while let top = heap.first, actions[top.sequence] == nil { popTop() }
    }

    @inlinable mutating func push(_ entry: Entry) {
        heap.append(entry)
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].precedes(heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    @inlinable mutating func popTop() {
        let last = heap.removeLast()
        guard !heap.isEmpty else { return }
        heap[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].precedes(heap[smallest]) { smallest = left }
            if right < heap.count, heap[right].precedes(heap[smallest]) { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
