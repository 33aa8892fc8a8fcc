import MatterDataModel
import MatterInteraction
import MatterTLV

// Matter Core §11.2 Group Key Management cluster, server, minimal: the device does no group messaging, so its group
// tables are empty and declare room for the IPK only; the key-set commands are not offered.
public struct GroupKeyManagementServer: ClusterServer {
    private typealias Attributes = GroupKeyManagementCluster.Attributes

    public init() {}

    public var description: ClusterDescription {
        ClusterDescription(
            id: GroupKeyManagementCluster.id.rawValue, revision: GroupKeyManagementCluster.revision,
            attributes: [
                AttributeDescription(Attributes.groupKeyMap), AttributeDescription(Attributes.groupTable),
                AttributeDescription(Attributes.maxGroupsPerFabric),
                AttributeDescription(Attributes.maxGroupKeysPerFabric),
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.groupKeyMap.id.rawValue, Attributes.groupTable.id.rawValue: .success(.array([]))
        case Attributes.maxGroupsPerFabric.id.rawValue: .success(.unsigned(UInt64(NodeConstants.maxGroupsPerFabric)))
        case Attributes.maxGroupKeysPerFabric.id.rawValue:
            .success(.unsigned(UInt64(NodeConstants.maxGroupKeysPerFabric)))
        default: .failure(.unsupportedAttribute)
        }
    }

    /// An empty GroupKeyMap may be written (nothing to map); entries would name key sets this device cannot hold.
    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        guard attribute == Attributes.groupKeyMap.id.rawValue else { return .unsupportedWrite }
        guard case .array(let items) = value.value else { return .invalidDataType }
        return items.isEmpty ? .success : .resourceExhausted
    }
}
