import MatterMessaging

/// Why a node could not take its credentials or its sockets; each says what is wrong.
public enum NodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Certificates or keys that do not form a usable fabric or attestation chain.
    case invalidCredentials(String)
    /// The sockets or the mDNS responder could not be set up.
    case network(String)
    /// A protocol the node speaks already: its own (secure channel, Interaction Model) or one registered before.
    case protocolTaken(ProtocolID)
    /// The node has no fabric at this index.
    case unknownFabric(UInt8)
    /// No key set of the fabric is mapped to the group (Group Key Management's GroupKeyMap).
    case noGroupKey(groupID: UInt16, fabricIndex: UInt8)
    /// What must be stored before the node acts could not be.
    case storage(String)

    public var description: String {
        switch self {
        case .invalidCredentials(let reason): "invalid operational credentials: \(reason)"
        case .network(let reason): "network: \(reason)"
        case .protocolTaken(let protocolID): "the node already has a handler for the \(protocolID) protocol"
        case .unknownFabric(let index): "the node has no fabric \(index)"
        case .noGroupKey(let group, let fabric):
            "no group key set is mapped to group 0x\(String(group, radix: 16, uppercase: true)) on fabric \(fabric)"
        case .storage(let reason): "cannot store \(reason)"
        }
    }
}
