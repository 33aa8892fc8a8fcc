import MatterMessaging

// Matter Core §4.4 Message transports, §4.12.1 (MRP over unreliable links only), §4.19 (BTP)
/// Where a peer is reached: the kind of link, and the peer on it. The link kind says what MRP must do.
public enum PeerAddress: LinkPeer, CustomStringConvertible {
    /// Over UDP, IPv4 or IPv6: datagrams may be lost, so MRP runs.
    case udp(SocketAddress)
    /// Over a Bluetooth LE connection carrying BTP, which delivers every message in order or fails: MRP stays off.
    case bluetooth(BluetoothConnection)

    public var isReliableLink: Bool {
        switch self {
        case .udp: false
        case .bluetooth: true
        }
    }

    public var maximumMessageSize: Int {
        switch self {
        case .udp: MessagingConstants.maximumUDPMessageSize
        // BTP segments a message itself; the messages are the ones UDP would carry once the device is on its
        // network, and connectedhomeip caps them the same on every transport.
        case .bluetooth: MessagingConstants.maximumUDPMessageSize
        }
    }

    public var description: String {
        switch self {
        case .udp(let address): "\(address)"
        case .bluetooth(let connection): "\(connection)"
        }
    }
}

/// One Bluetooth LE connection of the process, numbered by whoever opened it (the BTP session over it).
public struct BluetoothConnection: Hashable, Sendable, CustomStringConvertible {
    public let id: UInt64

    public init(id: UInt64) {
        self.id = id
    }

    public var description: String { "Bluetooth LE connection \(id)" }
}
