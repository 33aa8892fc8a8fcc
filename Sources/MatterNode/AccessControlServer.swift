import MatterDataModel
import MatterInteraction
import MatterTLV

// Matter Core §9.10 Access Control cluster, server: each fabric's list of entries, read and written fabric-scoped;
// `NodeDataModel.isAllowed` enforces them.
public struct AccessControlServer: ClusterServer {
    private typealias Cluster = AccessControlCluster

    public init() {}

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Cluster.Attributes.acl),
                AttributeDescription(Cluster.Attributes.subjectsPerAccessControlEntry),
                AttributeDescription(Cluster.Attributes.targetsPerAccessControlEntry),
                AttributeDescription(Cluster.Attributes.accessControlEntriesPerFabric),
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Cluster.Attributes.acl.id.rawValue:
            let fabrics = node.fabrics.filter { !request.isFabricFiltered || $0.index == request.context.fabricIndex }
            return .success(
                .array(
                    fabrics.flatMap { fabric in
                        fabric.accessControl.map { TLVElement($0.tlvValue(fabricIndex: fabric.index)) }
                    }))
        case Cluster.Attributes.subjectsPerAccessControlEntry.id.rawValue:
            return .success(.unsigned(UInt64(NodeConstants.subjectsPerAccessControlEntry)))
        case Cluster.Attributes.targetsPerAccessControlEntry.id.rawValue:
            return .success(.unsigned(UInt64(NodeConstants.targetsPerAccessControlEntry)))
        case Cluster.Attributes.accessControlEntriesPerFabric.id.rawValue:
            return .success(.unsigned(UInt64(NodeConstants.accessControlEntriesPerFabric)))
        default:
            return .failure(.unsupportedAttribute)
        }
    }

    /// §9.10.5.3: the written list replaces the accessing fabric's entries, all of them valid or none.
    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        guard attribute == Cluster.Attributes.acl.id.rawValue else { return .unsupportedWrite }
        guard let position = node.fabrics.firstIndex(where: { $0.index == request.context.fabricIndex }) else {
            return .unsupportedAccess
        }
        guard case .array(let items) = value.value else { return .invalidDataType }
        guard items.count <= Int(NodeConstants.accessControlEntriesPerFabric) else { return .resourceExhausted }
        var entries: [AccessControlEntry] = []
        for item in items {
            guard let entry = AccessControlEntry(written: item) else { return .constraintError }
            entries.append(entry)
        }
        node.fabrics[position].accessControl = entries
        node.markChanged(endpoint: request.endpoint, cluster: id, attributes: [attribute])
        node.effects += [
            .persist, .log("[access] fabric \(request.context.fabricIndex) ACL now has \(entries.count) entries"),
        ]
        return .success
    }
}
