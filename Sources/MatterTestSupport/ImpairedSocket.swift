import MatterDiscovery
import MatterPlatform
import Synchronization

/// A UDP socket that loses, duplicates and reorders what it sends, from a seeded generator: the lossy
/// network of the tests that run the whole stack on loopback.
public final class ImpairedSocket: DatagramSocket {
    public struct Conditions: Sendable {
        public var loss = 0.0
        public var duplication = 0.0
        /// Chance that a datagram is held back and sent after the next one.
        public var reordering = 0.0

        public init(loss: Double = 0, duplication: Double = 0, reordering: Double = 0) {
            self.loss = loss
            self.duplication = duplication
            self.reordering = reordering
        }
    }

    private struct State {
        var random: SplitMix64
        var held: (bytes: [UInt8], address: SocketAddress)?
        var sent = 0, lost = 0, duplicated = 0, reordered = 0
    }

    private let socket: UDPSocket
    private let conditions: Conditions
    private let state: Mutex<State>

    public init(family: UDPSocket.Family, conditions: Conditions, seed: UInt64) throws {
        socket = try UDPSocket(family: family)
        try socket.bind(to: family == .ipv4 ? .ipv4(IPv4Address(0), port: 0) : .ipv6(IPv6Address(0, 0), port: 0))
        self.conditions = conditions
        state = Mutex(State(random: SplitMix64(seed: seed)))
    }

    public var statistics: (sent: Int, lost: Int, duplicated: Int, reordered: Int) {
        state.withLock { ($0.sent, $0.lost, $0.duplicated, $0.reordered) }
    }

    public func send(_ bytes: [UInt8], to address: SocketAddress) throws(SocketError) {
        let outgoing: [([UInt8], SocketAddress)] = state.withLock { state in
            state.sent += 1
            if Double.random(in: 0..<1, using: &state.random) < conditions.loss {
                state.lost += 1
                return []
            }
            var batch = [(bytes, address)]
            if Double.random(in: 0..<1, using: &state.random) < conditions.duplication {
                state.duplicated += 1
                batch.append((bytes, address))
            }
            if let held = state.held {
                state.held = nil
                batch.append((held.bytes, held.address))
            } else if Double.random(in: 0..<1, using: &state.random) < conditions.reordering {
                state.reordered += 1
                state.held = (bytes, address)
                return []
            }
            return batch
        }
        for (datagram, destination) in outgoing {
            try socket.send(datagram, to: destination)
        }
    }

    public func receive(
        maximumLength: Int, timeout: Duration
    ) throws(SocketError) -> (bytes: [UInt8], sender: SocketAddress)? {
        try socket.receive(maximumLength: maximumLength, timeout: timeout)
    }

    public func localAddress() throws(SocketError) -> SocketAddress {
        try socket.localAddress()
    }

    public var readinessDescriptor: Int32 { socket.readinessDescriptor }
}
