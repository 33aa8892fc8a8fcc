import MatterDiscovery
import MatterMessaging

// Matter Core §4.4 Message transports, §4.12.1 (MRP over unreliable links only), §4.19 (BTP), §4.16 (groups)
/// Where a peer is reached: the kind of link, and the peer on it. The link kind says what MRP must do.
public enum PeerAddress: LinkPeer, CustomStringConvertible {
    /// Over UDP, IPv4 or IPv6: datagrams may be lost, so MRP runs.
    case udp(SocketAddress)
    /// Over a Bluetooth LE connection carrying BTP, which delivers every message in order or fails: MRP stays off.
    case bluetooth(BluetoothConnection)
    /// Every member of a group, by IPv6 multicast: a group message asks for no acknowledgement and no answer, so
    /// MRP never runs for it either, though nothing guarantees its delivery.
    case group(GroupPeer)

    public var isReliableLink: Bool {
        switch self {
        case .udp, .group: false
        case .bluetooth: true
        }
    }

    public var maximumMessageSize: Int {
        switch self {
        case .udp, .group: MessagingConstants.maximumUDPMessageSize
        // BTP segments a message itself; the messages are the ones UDP would carry once the device is on its
        // network, and connectedhomeip caps them the same on every transport.
        case .bluetooth: MessagingConstants.maximumUDPMessageSize
        }
    }

    public var description: String {
        switch self {
        case .udp(let address): "\(address)"
        case .bluetooth(let connection): "\(connection)"
        case .group(let group): "\(group)"
        }
    }
}

// Matter Core §2.5.6.2 IPv6 multicast address of a group, §4.16 group communication
/// One group of one fabric, as its members are reached: the fabric's multicast address for the group, on Matter's
/// port.
public struct GroupPeer: Hashable, Sendable, CustomStringConvertible {
    public let fabricID: UInt64
    public let groupID: UInt16

    /// Group messages go to Matter's port, whatever port each member answers unicast on: one address reaches
    /// every member.
    public static let port: UInt16 = 5540

    public init(fabricID: UInt64, groupID: UInt16) {
        self.fabricID = fabricID
        self.groupID = groupID
    }

    /// FF35:0040:FD<fabric ID>00:<group ID>, port 5540.
    public var address: SocketAddress {
        .ipv6(.matterGroup(fabricID: fabricID, groupID: groupID), port: Self.port)
    }

    public var description: String {
        "group 0x\(String(groupID, radix: 16, uppercase: true)) of fabric 0x\(String(fabricID, radix: 16, uppercase: true))"
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
