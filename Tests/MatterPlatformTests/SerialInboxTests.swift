import MatterPlatform
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(1))) struct SerialInboxTests {
    /// What the handler saw: the elements in the order it took them, and how many it ever handled at once.
    private final class Handled: Sendable {
        private let state = Mutex((elements: [Int](), running: 0, mostAtOnce: 0))

        func begin(_ element: Int) {
            state.withLock { state in
                state.elements.append(element)
                state.running += 1
                state.mostAtOnce = max(state.mostAtOnce, state.running)
            }
        }

        func end() { state.withLock { $0.running -= 1 } }
        var elements: [Int] { state.withLock { $0.elements } }
        var mostAtOnce: Int { state.withLock { $0.mostAtOnce } }
    }

    @Test func elementsAreHandledOneAtATimeInTheOrderDelivered() async {
        let handled = Handled()
        let (done, finish) = AsyncStream<Void>.makeStream()
        let inbox = SerialInbox<Int> { element in
            handled.begin(element)
            // A handler that suspends: the next element must still wait for it.
            await Task.yield()
            try? await Task.sleep(for: .milliseconds(element % 3))
            handled.end()
            if element == 199 { finish.yield() }
        }
        for element in 0..<100 { inbox.deliver(element) }
        // Some delivered while the inbox drains, some after it has gone idle.
        try? await Task.sleep(for: .milliseconds(20))
        for element in 100..<200 { inbox.deliver(element) }
        var iterator = done.makeAsyncIterator()
        _ = await iterator.next()
        #expect(handled.elements == Array(0..<200))
        #expect(handled.mostAtOnce == 1)
    }

    @Test func aClosedInboxDropsWhatWaitsAndEveryLaterDelivery() async {
        let handled = Handled()
        let (started, startedFirst) = AsyncStream<Void>.makeStream()
        let (release, releaseFirst) = AsyncStream<Void>.makeStream()
        let inbox = SerialInbox<Int> { element in
            handled.begin(element)
            if element == 1 {
                startedFirst.yield()
                var waiting = release.makeAsyncIterator()
                _ = await waiting.next()
            }
            handled.end()
        }
        inbox.deliver(1)
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        inbox.deliver(2)
        inbox.close()
        inbox.deliver(3)
        releaseFirst.yield()
        try? await Task.sleep(for: .milliseconds(50))
        #expect(handled.elements == [1], "the element being handled finished; the waiting and later ones were dropped")
    }
}
