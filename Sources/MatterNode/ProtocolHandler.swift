import MatterMessaging
import MatterPlatform

/// Who the peer of an exchange is, as the node knows it from the session it accepted.
public struct SessionPeer: Sendable, Hashable {
    /// A commissioner over PASE, before it has a fabric of the node's.
    public let isPASE: Bool
    /// The fabric the peer proved itself on (0 over PASE before AddNOC).
    public let fabricIndex: UInt8
    /// The peer's operational node ID over CASE.
    public let nodeID: UInt64
}

/// A protocol the node speaks besides the secure channel and the Interaction Model, which are its own (Bulk Data
/// Exchange next, for firmware images): it takes each exchange a peer opens for that protocol on a session the node
/// accepted (Matter Core §4.10.5: an unsolicited message's protocol picks its handler) and carries it on over the
/// node's transport. Each exchange runs in a task of its own, so a long transfer holds up nothing else of the node.
public protocol ProtocolHandler: Sendable {
    func accept(
        _ exchange: ExchangeHandle, _ first: ExchangeMessage, from peer: SessionPeer, over transport: MatterTransport
    ) async
}
