import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterNode
import MatterTLV

// Matter Application Clusters §1.2 Identify cluster, server: IdentifyTime counts down from when it was set (computed
// on read, so no timer runs for it).
public struct IdentifyServer: ClusterServer {
    private typealias Cluster = IdentifyCluster

    private var identifyingUntil: Instant?
    public let identifyType: IdentifyCluster.IdentifyTypeEnum

    public init(identifyType: IdentifyCluster.IdentifyTypeEnum) {
        self.identifyType = identifyType
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Cluster.Attributes.identifyTime),
                AttributeDescription(Cluster.Attributes.identifyType),
            ],
            acceptedCommands: [CommandDescription(Cluster.Commands.Identify.self)])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Cluster.Attributes.identifyTime.id.rawValue: .success(.unsigned(UInt64(remainingSeconds(at: node.now))))
        case Cluster.Attributes.identifyType.id.rawValue: .success(.unsigned(UInt64(identifyType.rawValue)))
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        guard attribute == Cluster.Attributes.identifyTime.id.rawValue else { return .unsupportedWrite }
        guard let seconds = try? UInt16(tlv: value) else { return .invalidDataType }
        identify(for: seconds, in: &node, endpoint: request.endpoint)
        return .success
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        guard command == Cluster.Commands.Identify.id.rawValue else { return .status(.unsupportedCommand) }
        guard let identify = Cluster.Commands.Identify.decode(fields) else { return .status(.invalidCommand) }
        self.identify(for: identify.identifyTime, in: &node, endpoint: request.endpoint)
        return .success
    }

    private mutating func identify(for seconds: UInt16, in node: inout NodeState, endpoint: UInt16) {
        identifyingUntil = seconds == 0 ? nil : node.now + .seconds(Int(seconds))
        node.signals.append((endpoint: endpoint, signal: .identifying(until: identifyingUntil)))
        node.markChanged(endpoint: endpoint, cluster: id, attributes: [Cluster.Attributes.identifyTime.id.rawValue])
        node.effects.append(.log(seconds == 0 ? "[identify] stop" : "[identify] for \(seconds) s"))
    }

    private func remainingSeconds(at now: Instant) -> UInt16 {
        guard let until = identifyingUntil, now < until else { return 0 }
        let (seconds, attoseconds) = (until - now).components
        return UInt16(clamping: seconds + (attoseconds > 0 ? 1 : 0))
    }
}
