import Dispatch
import Glibc

/// SIGINT and SIGTERM, caught from the moment one is made: a process that must stop cleanly (withdraw its
/// advertisements, close its sockets, save its state) makes it first, before it starts anything, and waits on it
/// once it runs. The handlers only wake the waiting task; the process then shuts down in its own time.
public struct StopSignal {
    /// Each SIGINT or SIGTERM, as it arrives.
    public let signals: AsyncStream<Int32>
    private let sources: [any DispatchSourceSignal]

    public init() {
        let (signals, signalled) = AsyncStream<Int32>.makeStream()
        self.signals = signals
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            // On the main queue: a handler formed in main-actor code must run there.
            let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
            source.setEventHandler { signalled.yield(number) }
            source.resume()
            return source
        }
    }

    /// Returns at the first signal.
    public func wait() async {
        for await _ in signals { return }
    }
}
