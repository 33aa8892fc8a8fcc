import MatterTLV

// Matter Core §7.13 Global Elements: the attributes every cluster has, answered by the engine from the cluster's
// description so that no provider can get them out of step with what it implements. (EventList, 0xFFFA, was
// provisional and is left out, as Matter 1.3 removed it.)
enum GlobalAttribute: UInt32, CaseIterable {
    case generatedCommandList = 0xFFF8
    case acceptedCommandList = 0xFFF9
    case attributeList = 0xFFFB
    case featureMap = 0xFFFC
    case clusterRevision = 0xFFFD

    /// The attribute's value for this cluster.
    func value(of cluster: ClusterDescription) -> TLVValue {
        switch self {
        case .generatedCommandList: Self.idList(cluster.generatedCommands)
        case .acceptedCommandList: Self.idList(cluster.acceptedCommands.map(\.id))
        case .attributeList: Self.idList(Self.attributeIDs(of: cluster))
        case .featureMap: .unsigned(UInt64(cluster.featureMap))
        case .clusterRevision: .unsigned(UInt64(cluster.revision))
        }
    }

    /// Every attribute of the cluster, its own then the global ones (the order of AttributeList and of wildcard reads).
    static func attributeIDs(of cluster: ClusterDescription) -> [UInt32] {
        cluster.attributes.map(\.id) + allCases.map(\.rawValue)
    }

    /// A global attribute's description: readable with View, never writable.
    static func description(of id: UInt32) -> AttributeDescription? {
        GlobalAttribute(rawValue: id).map { AttributeDescription(id: $0.rawValue) }
    }

    private static func idList(_ ids: [UInt32]) -> TLVValue {
        .array(ids.map { TLVElement(.unsigned(UInt64($0))) })
    }
}
