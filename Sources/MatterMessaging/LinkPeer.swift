// Matter Core §4.4 Message transports and §4.12.1 (MRP runs over unreliable transports only)
/// Where a peer is reached, and what the link there guarantees. MRP runs only over an unreliable link (UDP): a
/// reliable one (BTP over Bluetooth LE, TCP) delivers every message in order or fails, so its messages carry no R
/// flag, are never retransmitted and are not acknowledged.
public protocol LinkPeer: Hashable, Sendable {
    /// Whether the link delivers every message, in order, or fails.
    var isReliableLink: Bool { get }
    /// The largest whole message (headers and MIC included) the link carries to this peer: a larger one is refused
    /// when it is sent (`ExchangeError.messageTooLarge`), not lost on the way.
    var maximumMessageSize: Int { get }
}

// Matter Core §4.16 Group communication, §4.6 message reception
/// A group message as the exchange layer hands it on: its header read (group session ID, source node, destination
/// group) and the datagram still sealed, for the group messaging layer, which holds the group keys, to open.
public struct GroupDatagram: Sendable, Hashable {
    public let header: MessageHeader
    /// The whole datagram, header included, as it arrived.
    public let datagram: [UInt8]

    /// §4.4.1.2: the group session ID, derived from the operational group key (§4.16.3.6).
    public var groupSessionID: UInt16 { header.sessionID }
    /// The sender: a group message always names it (S flag).
    public var sourceNodeID: UInt64 { header.sourceNodeID ?? 0 }
    /// The destination group.
    public var groupID: UInt16 {
        if case .group(let group)? = header.destination { group } else { 0 }
    }
}
