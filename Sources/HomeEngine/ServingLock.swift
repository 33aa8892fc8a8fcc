import Foundation
import Glibc
import HubWire
import Synchronization

/// The one hub serving a home: an exclusive lock (`flock`) on `hub.lock` in the state directory, held for the life of
/// the process that serves it and released by the kernel when that process dies, however it dies; the file names
/// the holder's PID so a second one can say who serves the home.
public final class ServingLock: Sendable {
    private let descriptor: Int32
    private let released = Mutex(false)

    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// Another process serves the home (its PID, when it could be read).
        case held(directory: String, pid: Int32?)
        case cannotOpen(path: String, reason: String)

        public var description: String {
            switch self {
            case .held(let directory, let pid?): "a hub already serves \(directory) (PID \(pid))"
            case .held(let directory, nil): "a hub already serves \(directory)"
            case .cannotOpen(let path, let reason): "cannot open \(path): \(reason)"
            }
        }
    }

    /// Takes the lock of the home in `directory`, or fails at once naming who holds it.
    public init(directory: String) throws(Failure) {
        let path = directory + "/hub.lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .cannotOpen(path: path, reason: String(cString: strerror(errno))) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            close(descriptor)
            let text = String(decoding: buffer.prefix(max(0, count)), as: UTF8.self)
            throw .held(directory: directory, pid: Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.count, 0)
        self.descriptor = descriptor
    }

    /// Releases the lock (once): the home may be served by another process from now on.
    public func release() {
        guard
            released.withLock({ released in
                defer { released = true }; return !released
            })
        else { return }
        _ = ftruncate(descriptor, 0)
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }

    deinit {
        release()
    }
}
