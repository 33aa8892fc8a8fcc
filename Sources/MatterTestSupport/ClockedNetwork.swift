import CLinux
import Glibc
import MatterCrypto
import MatterDiscovery
import MatterPlatform
import MatterTime
import Synchronization

/// A datagram network for driver tests: the real transport, node connections and devices run over it, on a
/// `ManualClock`. Each datagram may be lost, duplicated, delayed and so reordered (a random extra delay lets a later
/// one overtake), from a seeded generator; a delayed one arrives when the test advances the clock past its arrival.
/// Sockets are plain `DatagramSocket`s whose readiness is an eventfd, so the transport waits on them exactly as on
/// UDP sockets. Sockets come in pairs, one per family on one port (`127.0.0.1:port` and `[::1]:port`), as a
/// transport binds them.
public final class ClockedNetwork: Sendable {
    public struct Conditions: Sendable, Hashable {
        public var loss: Double
        public var duplication: Double
        public var delay: Duration
        /// Each copy also waits a random extra delay in 0..<extraDelay.
        public var extraDelay: Duration

        public init(loss: Double = 0, duplication: Double = 0, delay: Duration = .zero, extraDelay: Duration = .zero) {
            self.loss = loss
            self.duplication = duplication
            self.delay = delay
            self.extraDelay = extraDelay
        }
    }

    public struct Statistics: Sendable, Hashable {
        public var sent = 0
        public var lost = 0
        public var duplicated = 0
        public var delivered = 0
    }

    private struct State {
        var random: SplitMix64
        var conditions: Conditions
        var sockets: [SocketAddress: ClockedSocket] = [:]
        /// The sockets that joined each group address (`join`), in joining order.
        var groupMembers: [SocketAddress: [ClockedSocket]] = [:]
        var nextPort: UInt16 = 40_000
        var statistics = Statistics()
    }

    public let clock: ManualClock
    private let state: Mutex<State>

    public init(clock: ManualClock, seed: UInt64, conditions: Conditions = Conditions()) {
        self.clock = clock
        state = Mutex(State(random: SplitMix64(seed: seed), conditions: conditions))
    }

    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// What the network does to datagrams from now on: a test sets a device up on a clean network, then degrades it.
    public func setConditions(_ conditions: Conditions) {
        state.withLock { $0.conditions = conditions }
    }

    /// An IPv4 and an IPv6 socket on a port of their own.
    public func sockets() -> (ipv4: ClockedSocket, ipv6: ClockedSocket) {
        state.withLock { state in
            let port = state.nextPort
            state.nextPort += 1
            let ipv4 = ClockedSocket(network: self, address: .ipv4(IPv4Address(127 << 24 | 1), port: port))
            let ipv6 = ClockedSocket(network: self, address: .ipv6(IPv6Address(0, 1), port: port))
            state.sockets[.ipv4(IPv4Address(127 << 24 | 1), port: port)] = ipv4
            state.sockets[.ipv6(IPv6Address(0, 1), port: port)] = ipv6
            return (ipv4, ipv6)
        }
    }

    /// A transport on a new pair of sockets, on the network's clock, with multicast on the network.
    public func transport(random: some RandomSource = SystemRandom()) -> MatterTransport {
        let (ipv4, ipv6) = sockets()
        return MatterTransport(ipv4: ipv4, ipv6: ipv6, multicast: self, random: random, clock: clock)
    }

    func carry(_ bytes: [UInt8], from source: SocketAddress, to destination: SocketAddress) {
        let arrivals: [(ClockedSocket, Duration)] = state.withLock { state in
            let targets =
                state.groupMembers[Self.routable(destination)] ?? state.sockets[Self.routable(destination)].map { [$0] }
                ?? []
            if targets.isEmpty {
                state.statistics.sent += 1
                state.statistics.lost += 1
                return []
            }
            // A group datagram reaches each member on its own, lost or delayed independently.
            return targets.flatMap { target in
                state.statistics.sent += 1
                guard Double.random(in: 0..<1, using: &state.random) >= state.conditions.loss else {
                    state.statistics.lost += 1
                    return [(ClockedSocket, Duration)]()
                }
                var copies = 1
                if Double.random(in: 0..<1, using: &state.random) < state.conditions.duplication {
                    state.statistics.duplicated += 1
                    copies = 2
                }
                return (0..<copies).map { _ in
                    let extra = state.conditions.extraDelay * Double.random(in: 0..<1, using: &state.random)
                    return (target, state.conditions.delay + extra)
                }
            }
        }
        for (target, delay) in arrivals {
            if delay <= .zero {
                deliver(bytes, from: source, to: target)
            } else {
                let arrival = clock.now + delay
                Task { [clock] in
                    guard (try? await clock.sleep(until: arrival)) != nil else { return }
                    self.deliver(bytes, from: source, to: target)
                }
            }
        }
    }

    /// Where a datagram to `address` goes: scope IDs do not matter on this one link.
    private static func routable(_ address: SocketAddress) -> SocketAddress {
        switch address {
        case .ipv6(let host, let port, _): .ipv6(host, port: port)
        default: address
        }
    }

    private func deliver(_ bytes: [UInt8], from source: SocketAddress, to target: ClockedSocket) {
        state.withLock { $0.statistics.delivered += 1 }
        target.enqueue(bytes, from: source)
    }

    fileprivate func leave(_ socket: ClockedSocket) {
        state.withLock { state in
            for (group, members) in state.groupMembers {
                let remaining = members.filter { $0 !== socket }
                state.groupMembers[group] = remaining.isEmpty ? nil : remaining
            }
        }
    }
}

/// The network is one link: a group's datagrams reach every socket that joined it, whatever interface is named.
extension ClockedNetwork: MulticastLink {
    public func join(_ group: SocketAddress, interfaces: [String]) throws(SocketError) -> any DatagramSocket {
        let socket = ClockedSocket(network: self, address: group)
        state.withLock { $0.groupMembers[Self.routable(group), default: []].append(socket) }
        return socket
    }

    public func send(_ bytes: [UInt8], to group: SocketAddress, interface: String) throws(SocketError) {
        // From a port of no socket's: group messages are never answered.
        carry(bytes, from: .ipv6(IPv6Address(0, 1), port: 0), to: group)
    }
}

/// One socket of a `ClockedNetwork`: readable (its eventfd signalled) while datagrams wait.
public final class ClockedSocket: DatagramSocket {
    private unowned let network: ClockedNetwork
    private let address: SocketAddress
    private let queue = Mutex<[(bytes: [UInt8], sender: SocketAddress)]>([])
    public let readinessDescriptor: Int32

    init(network: ClockedNetwork, address: SocketAddress) {
        self.network = network
        self.address = address
        readinessDescriptor = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
    }

    deinit {
        close(readinessDescriptor)
    }

    public var port: UInt16 { address.port }

    public func send(_ bytes: [UInt8], to destination: SocketAddress) throws(SocketError) {
        network.carry(bytes, from: address, to: destination)
    }

    /// What waits, at once: the transport drains a socket when it is readable, never blocking on it.
    public func receive(
        maximumLength: Int, timeout: Duration
    ) throws(SocketError) -> (bytes: [UInt8], sender: SocketAddress)? {
        queue.withLock { queue in
            guard !queue.isEmpty else { return nil }
            let first = queue.removeFirst()
            if queue.isEmpty {
                var counter: UInt64 = 0
                _ = read(readinessDescriptor, &counter, 8)
            }
            return (Array(first.bytes.prefix(maximumLength)), first.sender)
        }
    }

    public func localAddress() throws(SocketError) -> SocketAddress { address }

    /// A group's socket leaves its group; a unicast one keeps its address for the network's life.
    public func releaseAddress() {
        network.leave(self)
    }

    func enqueue(_ bytes: [UInt8], from sender: SocketAddress) {
        queue.withLock { queue in
            queue.append((bytes, sender))
            var one: UInt64 = 1
            _ = write(readinessDescriptor, &one, 8)
        }
    }
}
