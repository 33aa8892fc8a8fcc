import Dispatch
import Glibc

/// Calls `handler` when a file in a directory is closed after writing (Linux inotify on the directory, waited on
/// like a socket): how a process hears that another one wrote the shared store, without reading it on a timer.
/// The writer calls `signal(_:)` on a marker file once its transaction has committed, so a reader woken by the
/// marker always sees the commit (the database's own files change before the commit is visible to readers).
public final class FileChangeWatch: Sendable {
    private static let queue = DispatchQueue(label: "swift-home.file-change-watch")
    private let descriptor: Int32
    private let readiness: SocketReadiness

    /// Throws when inotify is not available or the directory cannot be watched.
    public init(directory: String, handler: @escaping @Sendable () -> Void) throws(SocketError) {
        let descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard descriptor >= 0 else { throw .lastError("inotify_init1") }
        let mask = UInt32(IN_CLOSE_WRITE)
        guard inotify_add_watch(descriptor, directory, mask) >= 0 else {
            let error = SocketError.lastError("inotify_add_watch \(directory)")
            close(descriptor)
            throw error
        }
        self.descriptor = descriptor
        readiness = SocketReadiness(descriptor: descriptor) { resume in
            // Off the event loop's thread: the handler may read a database.
            Self.queue.async {
                // Each event names one file; what changed is for the handler to find out, so only drain them.
                var buffer = [UInt8](repeating: 0, count: 4096)
                while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
                handler()
                resume()
            }
        }
    }

    deinit {
        readiness.cancel()
        close(descriptor)
    }

    /// Wakes the watches of `path`'s directory: opens `path` for writing (creating it empty, mode 0600) and closes it.
    public static func signal(_ path: String) {
        let marker = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        if marker >= 0 { close(marker) }
    }
}
