import Glibc
import MatterDiscovery

/// A nonblocking POSIX UDP socket (IPv4 or IPv6), closed when released.
/// Every method is one system call on a descriptor that never changes, so sharing it across tasks is safe.
public final class UDPSocket: Sendable {
    public enum Family: Sendable, CustomStringConvertible {
        case ipv4, ipv6

        public var description: String { self == .ipv4 ? "IPv4" : "IPv6" }
    }

    public let family: Family
    let descriptor: Int32

    /// An IPv6 socket is IPv6-only, so an IPv4 socket can share its port.
    public init(family: Family) throws(SocketError) {
        self.family = family
        descriptor = socket(
            family == .ipv4 ? AF_INET : AF_INET6,
            Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .lastError("socket(\(family))") }
        if family == .ipv6 { try setOption(Int32(IPPROTO_IPV6), IPV6_V6ONLY, Int32(1), "set IPV6_V6ONLY") }
    }

    deinit {
        close(descriptor)
    }

    /// Gives up the bound address now, not when the socket is released: a fresh unbound socket takes the
    /// descriptor's place (dup2), so a call still in flight touches that one, never another file that reused the
    /// number. A device restarted in the same process can then bind its port again at once.
    public func releaseAddress() {
        let unbound = socket(
            family == .ipv4 ? AF_INET : AF_INET6, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard unbound >= 0 else { return }
        dup2(unbound, descriptor)
        close(unbound)
    }

    /// SO_REUSEADDR and SO_REUSEPORT, so several sockets (ours and an mDNS daemon's) can bind port 5353.
    public func allowPortSharing() throws(SocketError) {
        try setOption(SOL_SOCKET, SO_REUSEADDR, Int32(1), "set SO_REUSEADDR")
        try setOption(SOL_SOCKET, SO_REUSEPORT, Int32(1), "set SO_REUSEPORT")
    }

    /// SO_REUSEADDR alone: other sockets that ask for reuse may bind a more specific address on the same port (a
    /// group's multicast address), while a second wildcard socket without it is still refused.
    public func allowAddressReuse() throws(SocketError) {
        try setOption(SOL_SOCKET, SO_REUSEADDR, Int32(1), "set SO_REUSEADDR")
    }

    /// Binds to an address; port 0 picks an ephemeral port.
    public func bind(to address: SocketAddress) throws(SocketError) {
        try checkFamily(address)
        let result = address.withSocketAddress { Glibc.bind(descriptor, $0, $1) }
        guard result == 0 else { throw .lastError("bind to \(address)") }
    }

    /// The address the socket is bound to (the ephemeral port after binding to port 0).
    public func localAddress() throws(SocketError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard result == 0, let address = SocketAddress(storage) else { throw .lastError("getsockname") }
        return address
    }

    public func send(_ bytes: [UInt8], to address: SocketAddress) throws(SocketError) {
        try checkFamily(address)
        let sent = bytes.withUnsafeBytes { buffer in
            address.withSocketAddress { sendto(descriptor, buffer.baseAddress, buffer.count, 0, $0, $1) }
        }
        guard sent == bytes.count else { throw .lastError("send \(bytes.count) bytes to \(address)") }
    }

    /// The next datagram and its sender, waiting at most `timeout`; nil when none came in time.
    public func receive(
        maximumLength: Int = 9000, timeout: Duration = .zero
    ) throws(SocketError) -> (bytes: [UInt8], sender: SocketAddress)? {
        // A zero timeout is the event loop draining a readable socket: one non-blocking recvfrom, no poll.
        if timeout > .zero {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&poller, 1, milliseconds)
            guard ready >= 0 else {
                if errno == EINTR { return nil }
                throw .lastError("poll")
            }
            guard ready > 0 else { return nil }
        }
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        var received = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: maximumLength) { buffer, initialized in
            received = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    recvfrom(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT), $0, &length)
                }
            }
            initialized = max(0, received)
        }
        guard received >= 0 else {
            if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
            throw .lastError("recvfrom")
        }
        guard let sender = SocketAddress(storage) else { return nil }
        return (bytes, sender)
    }

    // MARK: Multicast

    /// IP_ADD_MEMBERSHIP / IPV6_JOIN_GROUP on the named interface.
    public func joinMulticastGroup(_ group: SocketAddress, interface: String) throws(SocketError) {
        try checkFamily(group)
        let index = try NetworkInterface.index(named: interface)
        switch group {
        case .ipv4(let address, _):
            var request = ip_mreqn()
            withUnsafeMutableBytes(of: &request.imr_multiaddr) { $0.copyBytes(from: address.bytes) }
            request.imr_ifindex = Int32(index)
            try setOption(Int32(IPPROTO_IP), IP_ADD_MEMBERSHIP, request, "join \(address) on \(interface)")
        case .ipv6(let address, _, _):
            var request = ipv6_mreq()
            withUnsafeMutableBytes(of: &request.ipv6mr_multiaddr) { $0.copyBytes(from: address.bytes) }
            request.ipv6mr_interface = index
            try setOption(Int32(IPPROTO_IPV6), IPV6_ADD_MEMBERSHIP, request, "join \(address) on \(interface)")
        }
    }

    /// IP_MULTICAST_ALL / IPV6_MULTICAST_ALL off: receive only the groups this socket joined, on the
    /// interfaces it joined them on, not every group any socket of the host joined.
    public func receiveOnlyJoinedGroups() throws(SocketError) {
        switch family {
        case .ipv4: try setOption(Int32(IPPROTO_IP), IP_MULTICAST_ALL, Int32(0), "clear IP_MULTICAST_ALL")
        case .ipv6: try setOption(Int32(IPPROTO_IPV6), IPV6_MULTICAST_ALL, Int32(0), "clear IPV6_MULTICAST_ALL")
        }
    }

    /// IP_MULTICAST_IF / IPV6_MULTICAST_IF: where multicast sent from now on goes out.
    public func setMulticastInterface(_ interface: String) throws(SocketError) {
        let index = try NetworkInterface.index(named: interface)
        switch family {
        case .ipv4:
            var request = ip_mreqn()
            request.imr_ifindex = Int32(index)
            try setOption(Int32(IPPROTO_IP), IP_MULTICAST_IF, request, "send multicast on \(interface)")
        case .ipv6:
            try setOption(Int32(IPPROTO_IPV6), IPV6_MULTICAST_IF, Int32(index), "send multicast on \(interface)")
        }
    }

    /// Multicast loop (so a responder on this host hears us) and the hop limit (RFC 6762 §11: 255).
    public func setMulticastLoop(_ enabled: Bool, hopLimit: Int32) throws(SocketError) {
        switch family {
        case .ipv4:
            try setOption(Int32(IPPROTO_IP), IP_MULTICAST_LOOP, Int32(enabled ? 1 : 0), "set IP_MULTICAST_LOOP")
            try setOption(Int32(IPPROTO_IP), IP_MULTICAST_TTL, hopLimit, "set IP_MULTICAST_TTL")
        case .ipv6:
            try setOption(Int32(IPPROTO_IPV6), IPV6_MULTICAST_LOOP, Int32(enabled ? 1 : 0), "set IPV6_MULTICAST_LOOP")
            try setOption(Int32(IPPROTO_IPV6), IPV6_MULTICAST_HOPS, hopLimit, "set IPV6_MULTICAST_HOPS")
        }
    }

    // MARK: Helpers

    private func setOption<Value>(
        _ level: Int32, _ name: Int32, _ value: Value, _ operation: String
    ) throws(SocketError) {
        let result = withUnsafeBytes(of: value) {
            setsockopt(descriptor, level, name, $0.baseAddress, socklen_t($0.count))
        }
        guard result == 0 else { throw .lastError(operation) }
    }

    private func checkFamily(_ address: SocketAddress) throws(SocketError) {
        switch (address, family) {
        case (.ipv4, .ipv4), (.ipv6, .ipv6): return
        default: throw .addressFamilyMismatch(address, socket: family.description)
        }
    }
}
