import MatterMessaging

/// Why a node could not take its credentials or its sockets; each says what is wrong.
public enum NodeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Certificates or keys that do not form a usable fabric or attestation chain.
    case invalidCredentials(String)
    /// The sockets or the mDNS responder could not be set up.
    case network(String)
    /// A protocol the node speaks already: its own (secure channel, Interaction Model) or one registered before.
    case protocolTaken(ProtocolID)

    public var description: String {
        switch self {
        case .invalidCredentials(let reason): "invalid operational credentials: \(reason)"
        case .network(let reason): "network: \(reason)"
        case .protocolTaken(let protocolID): "the node already has a handler for the \(protocolID) protocol"
        }
    }
}
