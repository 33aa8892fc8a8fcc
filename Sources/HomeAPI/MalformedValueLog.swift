import Foundation
import Synchronization

/// Where a value that does not decode as its type (an attribute read through a trait's `attributes`, an event's
/// fields) is told of: on standard error, once per message for the life of the process, since a query re-reads the
/// same value on every change and a device keeps reporting it.
final class MalformedValueLog: Sendable {
    static let shared = MalformedValueLog()

    private let reported = Mutex<Set<String>>([])

    func report(_ error: HomeError) {
        let line = "swift-home: \(error.message) (shown as not reported)\n"
        let first = reported.withLock { $0.insert(line).inserted }
        if first { FileHandle.standardError.write(Data(line.utf8)) }
    }

    /// Whether the message was logged: for tests.
    func hasReported(_ error: HomeError) -> Bool {
        reported.withLock { $0.contains("swift-home: \(error.message) (shown as not reported)\n") }
    }
}
