import CLinux
import Dispatch
import Foundation
import Synchronization

/// A program run as a child of this process, started with `posix_spawn`. Not Foundation's `Process`: on Linux its
/// `run()` reads past a directory entry while listing `/proc/self/fd` and crashes now and then (fixed upstream in
/// swift-corelibs-foundation #5472, after the 6.3.1 toolchain this builds with), and an app that adds devices through
/// a helper launches one per call.
///
/// The child starts with no signal blocked and the usual signals at their defaults (a parent that blocks or ignores
/// SIGTERM does not pass that on), and with no descriptor of ours beyond the three it is given: the pipes' other ends
/// are close-on-exec, so a second child never holds the first one's pipe open.
public final class ChildProcess: Sendable {
    public enum Input: Sendable {
        case null
        /// `input` is the write end; the child reads end of file when it is closed (or this process ends).
        case pipe
    }

    public enum Output: Sendable {
        case null
        /// This process's own descriptor.
        case inherit
        /// `output` or `errorOutput` is the read end.
        case pipe
    }

    public enum Termination: Sendable, Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        /// Its status could not be read (`waitpid` failed with this errno).
        case unknown(Int32)

        public var description: String {
            switch self {
            case .exited(let status): "exited with status \(status)"
            case .signalled(let signal): "killed by signal \(signal)"
            case .unknown(let error): "ended, how is unknown (\(String(cString: strerror(error))))"
            }
        }
    }

    public let pid: pid_t
    /// The write end of the child's standard input, when it is a pipe.
    public let input: FileHandle?
    /// The read end of the child's standard output, when it is a pipe.
    public let output: FileHandle?
    /// The read end of the child's standard error, when it is a pipe.
    public let errorOutput: FileHandle?
    private let ended = Mutex<Termination?>(nil)
    private let reaped = DispatchGroup()

    /// Starts `executable` (a path: no search of `PATH`) with `arguments` (not counting its own name) and
    /// `environment` (nil: this process's).
    public init(
        executable: String, arguments: [String] = [], environment: [String: String]? = nil,
        standardInput: Input = .null, standardOutput: Output = .null, standardError: Output = .null
    ) throws(ChildProcessError) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var childEnds: [Int32] = []
        defer { for descriptor in childEnds { close(descriptor) } }
        var parentEnds: [Int32?] = [nil, nil, nil]
        var started = false
        defer { if !started { for case let descriptor? in parentEnds { close(descriptor) } } }
        func openPipe() throws(ChildProcessError) -> (read: Int32, write: Int32) {
            var ends: [Int32] = [0, 0]
            guard pipe2(&ends, O_CLOEXEC) == 0 else { throw .cannotStart(executable, reason: errno) }
            return (ends[0], ends[1])
        }
        switch standardInput {
        case .null: posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        case .pipe:
            let ends = try openPipe()
            childEnds.append(ends.read)
            parentEnds[0] = ends.write
            posix_spawn_file_actions_adddup2(&actions, ends.read, 0)
        }
        for (descriptor, choice) in [(Int32(1), standardOutput), (2, standardError)] {
            switch choice {
            case .null: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .inherit: break
            case .pipe:
                let ends = try openPipe()
                childEnds.append(ends.write)
                parentEnds[Int(descriptor)] = ends.read
                posix_spawn_file_actions_adddup2(&actions, ends.write, descriptor)
            }
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT, SIGCHLD, SIGUSR1, SIGUSR2] {
            sigaddset(&defaults, signal)
        }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { for variable in envp ?? [] { free(variable) } }
        var pid: pid_t = 0
        let result = argv.withUnsafeBufferPointer { argv in
            if let envp {
                envp.withUnsafeBufferPointer { envp in
                    posix_spawn(&pid, executable, &actions, &attributes, argv.baseAddress!, envp.baseAddress!)
                }
            } else {
                posix_spawn(&pid, executable, &actions, &attributes, argv.baseAddress!, environ)
            }
        }
        guard result == 0 else { throw .cannotStart(executable, reason: result) }
        started = true
        self.pid = pid
        input = parentEnds[0].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        output = parentEnds[1].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        errorOutput = parentEnds[2].map { FileHandle(fileDescriptor: $0, closeOnDealloc: true) }
        reaped.enter()
        // Reaped on a thread of its own: a blocking wait on one of Swift concurrency's few threads would take it from
        // other work, and on one of Dispatch's global queues (which on Linux adds a thread for a blocked one only
        // after a while) it stalled every other user of those queues for seconds on a machine with two cores.
        Thread.detachNewThread { [self] in
            // Waited for without reaping first: until it is reaped its PID is nobody else's, and it is reaped under
            // the lock `send` takes, so a signal never reaches a process that reused the PID.
            var info = siginfo_t()
            while waitid(P_PID, id_t(self.pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
            ended.withLock { ended in
                var status: Int32 = 0
                var result: pid_t
                repeat { result = waitpid(self.pid, &status, 0) } while result == -1 && errno == EINTR
                ended =
                    result != self.pid
                    ? .unknown(errno)
                    : status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .signalled(status & 0x7F)
            }
            reaped.leave()
        }
    }

    /// Nil while it runs.
    public var terminated: Termination? {
        ended.withLock { $0 }
    }

    /// Sends `signal`, unless the child has already been reaped (its PID may be another process's by now).
    public func send(_ signal: Int32) {
        ended.withLock { termination in
            if termination == nil { _ = kill(pid, signal) }
        }
    }

    /// Waits for the child to end.
    public func termination() async -> Termination {
        await withCheckedContinuation { continuation in
            reaped.notify(queue: .global()) { [self] in
                continuation.resume(returning: ended.withLock { $0! })
            }
        }
    }

    /// Waits for the child to end, blocking the calling thread.
    public func waitUntilExit() -> Termination {
        reaped.wait()
        return ended.withLock { $0! }
    }

    /// Everything `handle` gives until end of file, read on a thread of its own (as the wait for the child's end).
    public static func readToEnd(_ handle: FileHandle) async -> Data {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: handle.readDataToEndOfFile()) }
        }
    }
}

public enum ChildProcessError: Error, Equatable, CustomStringConvertible {
    case cannotStart(String, reason: Int32)

    public var description: String {
        switch self {
        case .cannotStart(let executable, let reason):
            "cannot start \(executable): \(String(cString: strerror(reason)))"
        }
    }
}
