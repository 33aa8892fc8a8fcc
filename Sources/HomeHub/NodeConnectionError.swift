import HomeRecords
import MatterNode

/// Why something asked of a live connection failed.
public enum NodeConnectionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The node could not be reached (its session or subscription failed), or is offline now.
    case unreachable(nodeID: UInt64, reason: String)
    /// The connection was stopped.
    case stopped(nodeID: UInt64)
    /// The node failed the interaction: an error status, a timeout, a malformed answer.
    case interaction(InteractionClientError)
    /// The operation needs a cached attribute the node has not reported.
    case missingAttribute(String, endpoint: UInt16)
    /// A cached attribute does not decode as its type.
    case malformedAttribute(AttributeDecodingError)

    public var description: String {
        switch self {
        case .unreachable(let nodeID, let reason): "node \(Self.hex(nodeID)) is unreachable: \(reason)"
        case .stopped(let nodeID): "the connection to node \(Self.hex(nodeID)) was stopped"
        case .interaction(let error): "\(error)"
        case .missingAttribute(let name, let endpoint): "the device has not reported \(name) on endpoint \(endpoint)"
        case .malformedAttribute(let error): "\(error)"
        }
    }

    private static func hex(_ nodeID: UInt64) -> String {
        let digits = String(nodeID, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
