import Dispatch
import Glibc

/// Returns on SIGINT or SIGTERM: the handlers only wake the waiting task, which then shuts down cleanly (a
/// device's sockets closed, its state saved).
public func waitForStopSignal() async {
    let (signals, signalled) = AsyncStream<Int32>.makeStream()
    let sources = [SIGINT, SIGTERM].map { number in
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
        source.setEventHandler { signalled.yield(number) }
        source.resume()
        return source
    }
    for await _ in signals { break }
    withExtendedLifetime(sources) {}
}
