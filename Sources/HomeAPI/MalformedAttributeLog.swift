import Foundation
import Synchronization

/// Where a trait's implicit attribute read tells of a value that does not decode as its type: on standard error,
/// once per message for the life of the process, since a query re-reads the same value on every change and a device
/// keeps reporting it.
final class MalformedAttributeLog: Sendable {
    static let shared = MalformedAttributeLog()

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
