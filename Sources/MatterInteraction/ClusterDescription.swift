// Matter Core §7.10 Cluster, §7.13 Global Elements: one server cluster on one endpoint as the engine sees it.
/// The global attributes ClusterRevision, FeatureMap, AttributeList, AcceptedCommandList and GeneratedCommandList
/// are synthesized by the engine from this description (`GlobalAttribute`); `attributes` lists only the others.
public struct ClusterDescription: Hashable, Sendable {
    public var id: UInt32
    public var revision: UInt16
    public var featureMap: UInt32
    public var attributes: [AttributeDescription]
    public var acceptedCommands: [CommandDescription]
    /// Response commands the cluster sends (GeneratedCommandList).
    public var generatedCommands: [UInt32]
    /// Event IDs, readable with View privilege.
    public var events: [UInt32]

    public init(
        id: UInt32, revision: UInt16, featureMap: UInt32 = 0, attributes: [AttributeDescription] = [],
        acceptedCommands: [CommandDescription] = [], generatedCommands: [UInt32] = [], events: [UInt32] = []
    ) {
        self.id = id
        self.revision = revision
        self.featureMap = featureMap
        self.attributes = attributes
        self.acceptedCommands = acceptedCommands
        self.generatedCommands = generatedCommands
        self.events = events
    }

    /// Every attribute the cluster serves, its own then the global ones, as its AttributeList names them: what a
    /// subscriber must hear of when the cluster appears on a new endpoint.
    public var allAttributeIDs: [UInt32] { GlobalAttribute.attributeIDs(of: self) }
}
