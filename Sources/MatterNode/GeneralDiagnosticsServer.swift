import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterTLV

// Matter Core §11.12 General Diagnostics cluster, server: the host's real network interfaces, reboots and uptime;
// test event triggers are disabled, so TestEventTrigger is refused.
public struct GeneralDiagnosticsServer: ClusterServer {
    private typealias Cluster = GeneralDiagnosticsCluster
    private typealias Attributes = GeneralDiagnosticsCluster.Attributes

    public let interfaces: [HostNetworkInterface]
    public let rebootCount: UInt16
    /// When the device started, on the clock `NodeState.now` reads.
    public let bootTime: Instant

    public init(interfaces: [HostNetworkInterface], rebootCount: UInt16, bootTime: Instant) {
        self.interfaces = interfaces
        self.rebootCount = rebootCount
        self.bootTime = bootTime
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Attributes.networkInterfaces), AttributeDescription(Attributes.rebootCount),
                AttributeDescription(Attributes.upTime), AttributeDescription(Attributes.testEventTriggersEnabled),
            ],
            acceptedCommands: [
                CommandDescription(Cluster.Commands.TestEventTrigger.self),
                CommandDescription(Cluster.Commands.TimeSnapshot.self),
            ],
            generatedCommands: [Cluster.Commands.TimeSnapshotResponse.id.rawValue])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.networkInterfaces.id.rawValue: .success(interfaces.map(\.generalDiagnosticsValue).tlvValue())
        case Attributes.rebootCount.id.rawValue: .success(.unsigned(UInt64(rebootCount)))
        case Attributes.upTime.id.rawValue:
            .success(.unsigned(UInt64(max(0, (node.now - bootTime).components.seconds))))
        case Attributes.testEventTriggersEnabled.id.rawValue: .success(.bool(false))
        default: .failure(.unsupportedAttribute)
        }
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        switch command {
        // §11.12.7.1: without an enable key, every trigger is a constraint error.
        case Cluster.Commands.TestEventTrigger.id.rawValue:
            return Cluster.Commands.TestEventTrigger.decode(fields) == nil
                ? .status(.invalidCommand) : .status(.constraintError)
        case Cluster.Commands.TimeSnapshot.id.rawValue:
            return Cluster.Commands.TimeSnapshotResponse(
                systemTimeMs: node.now.nanoseconds / 1_000_000, posixTimeMs: .null
            ).outcome
        default:
            return .status(.unsupportedCommand)
        }
    }
}
