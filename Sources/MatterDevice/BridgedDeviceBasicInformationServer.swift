import MatterDataModel
import MatterInteraction
import MatterNode
import MatterTLV

// Matter Core §9.13 Bridged Device Basic Information cluster, server: who a bridged device is (product name, unique
// ID), that it is reachable, and its writable NodeLabel.
public struct BridgedDeviceBasicInformationServer: ClusterServer {
    private typealias Cluster = BridgedDeviceBasicInformationCluster
    private typealias Attributes = BridgedDeviceBasicInformationCluster.Attributes

    public let productName: String
    public let uniqueID: String
    public private(set) var nodeLabel = ""

    /// `nodeLabel` is what the bridge calls the device (at most `DeviceConstants.nodeLabelLength` bytes); a controller may rename it.
    public init(productName: String, uniqueID: String, nodeLabel: String = "") {
        self.productName = productName
        self.uniqueID = uniqueID
        self.nodeLabel = nodeLabel
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Attributes.productName), AttributeDescription(Attributes.nodeLabel),
                AttributeDescription(Attributes.reachable), AttributeDescription(Attributes.uniqueID),
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.productName.id.rawValue: .success(.utf8(productName))
        case Attributes.nodeLabel.id.rawValue: .success(.utf8(nodeLabel))
        // The bridged devices are simulated inside the bridge, so they are always reachable.
        case Attributes.reachable.id.rawValue: .success(.bool(true))
        case Attributes.uniqueID.id.rawValue: .success(.utf8(uniqueID))
        default: .failure(.unsupportedAttribute)
        }
    }

    /// §9.13.5.5 NodeLabel: at most 32 characters.
    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        guard attribute == Attributes.nodeLabel.id.rawValue else { return .unsupportedWrite }
        guard case .utf8(let text) = value.value else { return .invalidDataType }
        guard text.utf8.count <= DeviceConstants.nodeLabelLength else { return .constraintError }
        nodeLabel = text
        node.markChanged(endpoint: request.endpoint, cluster: id, attributes: [attribute])
        node.effects.append(.persist)
        return .success
    }

    public var persistentState: TLVValue? { .utf8(nodeLabel) }

    public mutating func restore(_ state: TLVElement) {
        if case .utf8(let label) = state.value, label.utf8.count <= DeviceConstants.nodeLabelLength {
            nodeLabel = label
        }
    }
}
