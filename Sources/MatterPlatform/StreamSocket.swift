import Dispatch
import Glibc
import Synchronization

/// A listening Unix domain stream socket: the hub's local client socket. Accepts on the runtime's readiness loop
/// and hands each connection on; it never waits for a client.
public final class UnixStreamListener: Sendable {
    public let path: String
    private let accepting: AcceptLoop

    /// Binds `path` (a stale socket file left by a process that died is replaced: the caller holds the lock that
    /// says no one else serves it), with `mode` as its permissions and, when given, `group` as its group; calls
    /// `accepted` on the loop's thread for each client (it must return at once).
    public init(
        path: String, mode: mode_t, group: gid_t? = nil,
        accepted: @escaping @Sendable (StreamConnection) -> Void
    ) throws(SocketError) {
        var address = try Self.address(path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .lastError("socket(AF_UNIX)") }
        unlink(path)
        // Not umask around bind: it is the whole process's, and another thread creating a file meanwhile would get it.
        // The socket lives in an owner-only directory, so no one else can reach it before the chmod below.
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else {
            let error = SocketError.lastError("bind to \(path)")
            Glibc.close(descriptor)
            throw error
        }
        if let group, chown(path, getuid(), group) != 0 {
            let error = SocketError.lastError("chown \(path) to group \(group)")
            Glibc.close(descriptor)
            throw error
        }
        guard chmod(path, mode) == 0, listen(descriptor, StreamTiming.backlog) == 0 else {
            let error = SocketError.lastError("listen on \(path)")
            Glibc.close(descriptor)
            throw error
        }
        self.path = path
        accepting = AcceptLoop(descriptor: descriptor, tune: { _ in }, accepted: accepted)
    }

    /// Stops accepting and removes the socket file; connections already accepted go on.
    public func close() {
        if accepting.stop() { unlink(path) }
    }

    deinit { close() }

    static func address(_ path: String) throws(SocketError) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard !bytes.isEmpty, bytes.count < capacity else { throw .pathTooLong(path, limit: capacity - 1) }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
            buffer[bytes.count] = 0
        }
        return address
    }
}

/// A listening TCP socket: the Matter-server API's (`home serve --listen`). Accepts on the runtime's readiness loop,
/// like the Unix listener, and hands each connection on.
public final class TCPListener: Sendable {
    private let accepting: AcceptLoop
    /// Where it listens (with the port the kernel chose for port 0).
    public let address: SocketAddress

    public init(
        address: SocketAddress, accepted: @escaping @Sendable (StreamConnection) -> Void
    ) throws(SocketError) {
        let family = address.isIPv4 ? AF_INET : AF_INET6
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .lastError("socket(TCP)") }
        var yes: Int32 = 1
        // A restarted hub binds its port again at once, though the last one's connections are still in TIME_WAIT.
        _ = setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        if !address.isIPv4 {
            _ = setsockopt(descriptor, Int32(IPPROTO_IPV6), IPV6_V6ONLY, &yes, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = address.withSocketAddress { bind(descriptor, $0, $1) }
        guard bound == 0, listen(descriptor, StreamTiming.backlog) == 0 else {
            let error = SocketError.lastError("listen on \(address)")
            Glibc.close(descriptor)
            throw error
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.address = SocketAddress(storage) ?? address
        accepting = AcceptLoop(
            descriptor: descriptor,
            tune: { client in
                var noDelay: Int32 = 1
                // Each WebSocket message is one small write that should leave at once.
                _ = setsockopt(client, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
            }, accepted: accepted)
    }

    /// Stops accepting; connections already accepted go on.
    public func close() {
        accepting.stop()
    }

    deinit { close() }
}

/// A listening socket's accepts on the loop: every pending client at each wake-up, each tuned and handed on.
private final class AcceptLoop: Sendable {
    private let descriptor: Int32
    private let readiness = Mutex<SocketReadiness?>(nil)

    init(
        descriptor: Int32, tune: @escaping @Sendable (Int32) -> Void,
        accepted: @escaping @Sendable (StreamConnection) -> Void
    ) {
        self.descriptor = descriptor
        // Accepting never blocks the loop's thread: set before the loop may call the handler.
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        readiness.withLock {
            $0 = SocketReadiness(descriptor: descriptor) { resume in
                while true {
                    let client = accept(descriptor, nil, nil)
                    guard client >= 0 else { break }
                    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                    tune(client)
                    accepted(StreamConnection(descriptor: client))
                }
                resume()
            }
        }
    }

    /// Stops accepting and closes the socket; true the first time.
    @discardableResult
    func stop() -> Bool {
        guard
            let readiness = readiness.withLock({ readiness in
                defer { readiness = nil }; return readiness
            })
        else {
            return false
        }
        readiness.cancel()
        Glibc.close(descriptor)
        return true
    }

    deinit { stop() }
}

/// One end of a stream connection (a Unix domain socket's or TCP's). Reads arrive on the runtime's readiness loop; writes are queued and
/// written in order on the connection's own thread, so a sender never blocks. A peer that lets more than
/// `StreamTiming.outgoingLimit` bytes pile up, or does not read for `StreamTiming.sendTimeout`, is closed:
/// one slow client cannot hold the hub's memory or its threads.
public final class StreamConnection: Sendable {
    /// Who is on the other end, as the kernel says (SO_PEERCRED).
    public struct Peer: Sendable, Hashable {
        public let pid: Int32
        public let uid: UInt32
        public let gid: UInt32
    }

    private struct State {
        var readiness: SocketReadiness?
        var pending = 0
        var closed = false
        var onClose: (@Sendable () -> Void)?
    }

    private let descriptor: Int32
    private let state = Mutex(State())
    private let writer = DispatchQueue(label: "swift-home.unix-stream.writer")

    init(descriptor: Int32) {
        self.descriptor = descriptor
        // Writes block (on the writer's queue, never the caller's), for at most the send timeout; reads never do
        // (MSG_DONTWAIT).
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        var timeout = timeval(tv_sec: Int(StreamTiming.sendTimeout.components.seconds), tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Connects to the socket at `path`.
    public static func connect(path: String) throws(SocketError) -> StreamConnection {
        var address = try UnixStreamListener.address(path)
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .lastError("socket(AF_UNIX)") }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            let error = SocketError.lastError("connect to \(path)")
            Glibc.close(descriptor)
            throw error
        }
        return StreamConnection(descriptor: descriptor)
    }

    /// Connects over TCP to `address` (a virtual device reaching the hub's `/ble`), blocking until the connection is
    /// made or refused.
    public static func connect(to address: SocketAddress) throws(SocketError) -> StreamConnection {
        let family = address.isIPv4 ? AF_INET : AF_INET6
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .lastError("socket(TCP)") }
        guard address.withSocketAddress({ Glibc.connect(descriptor, $0, $1) }) == 0 else {
            let error = SocketError.lastError("connect to \(address)")
            Glibc.close(descriptor)
            throw error
        }
        var noDelay: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        return StreamConnection(descriptor: descriptor)
    }

    /// The peer's process, user and group.
    public var peer: Peer? {
        // struct ucred (pid, uid, gid: three 32-bit fields), which Glibc's module leaves out without _GNU_SOURCE.
        var credentials: (Int32, UInt32, UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return Peer(pid: credentials.0, uid: credentials.1, gid: credentials.2)
    }

    /// The TCP peer's address; nil for a Unix socket's peer (or one already gone).
    public var remoteAddress: SocketAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        return named == 0 ? SocketAddress(storage) : nil
    }

    /// Starts reading: `received` gets the bytes as they come, on the loop's thread (it must return at once);
    /// `closed` is called once, when the peer closes, a read or write fails, or `close()` is called.
    public func start(
        received: @escaping @Sendable ([UInt8]) -> Void, closed: @escaping @Sendable () -> Void
    ) {
        let descriptor = descriptor
        state.withLock { state in
            state.onClose = closed
            state.readiness = SocketReadiness(descriptor: descriptor) { [weak self] resume in
                var buffer = [UInt8](repeating: 0, count: StreamTiming.readChunk)
                while true {
                    let count = buffer.withUnsafeMutableBytes {
                        recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                    }
                    if count > 0 {
                        received(Array(buffer[0..<count]))
                        continue
                    }
                    if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
                    if count < 0 && errno == EINTR { continue }
                    self?.close()  // The peer closed (0) or the connection failed.
                    return
                }
                resume()
            }
        }
    }

    /// Queues `bytes` to be written after everything queued before. False, and the connection is closed, when the
    /// peer is not keeping up (the queue would pass its limit) or the connection is already closed.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        let accepted = state.withLock { state in
            guard !state.closed, state.pending + bytes.count <= StreamTiming.outgoingLimit else { return false }
            state.pending += bytes.count
            return true
        }
        guard accepted else {
            close()
            return false
        }
        writer.async { [self] in
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes {
                    Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else {
                    close()
                    return
                }
                offset += written
            }
            state.withLock { $0.pending -= bytes.count }
        }
        return true
    }

    /// Closes the connection once everything queued before has been written: for a last word (a refusal).
    public func closeAfterWrites() {
        writer.async { [self] in close() }
    }

    /// Closes the connection (once); queued writes not yet made are dropped.
    public func close() {
        let closing = state.withLock { state -> (SocketReadiness?, (@Sendable () -> Void)?)? in
            guard !state.closed else { return nil }
            state.closed = true
            defer { (state.readiness, state.onClose) = (nil, nil) }
            return (state.readiness, state.onClose)
        }
        guard let (readiness, onClose) = closing else { return }
        readiness?.cancel()
        // Shut down now, so the peer sees the end at once; the descriptor itself is closed when the last queued
        // write has let go of the connection.
        shutdown(descriptor, Int32(SHUT_RDWR))
        onClose?()
    }

    deinit {
        state.withLock { $0.readiness?.cancel() }
        Glibc.close(descriptor)
    }
}

/// The stream sockets' limits, each with its reason.
public enum StreamTiming {
    /// Clients that may wait to be accepted: the CLI starts a few at once; more retry.
    static let backlog: Int32 = 64
    /// Bytes read per system call: a whole small message, and a large one in few calls.
    static let readChunk = 64 * 1024
    /// Bytes queued for one peer before it counts as not keeping up: above the largest message the hub sends (a
    /// home's whole state for a thousand nodes), below what a misbehaving client could make the hub hold for many.
    public static let outgoingLimit = 64 * 1024 * 1024
    /// How long one write may wait for a peer that does not read before the connection is closed.
    static let sendTimeout: Duration = .seconds(5)
}
