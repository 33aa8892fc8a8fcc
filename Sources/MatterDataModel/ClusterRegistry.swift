/// Clusters by ID, to name paths for people: "OnOff.Toggle"; unknown parts show as hex ("0xFFF1FC01.0x0002").
/// Combine the standard clusters with a vendor's: `ClusterRegistry(MatterClusters.all + AcmeClusters.all)`.
public struct ClusterRegistry: Sendable {
    private let clusters: [ClusterID: ClusterInfo]

    /// A later entry with the same ID replaces an earlier one.
    public init(_ clusters: [ClusterInfo]) {
        self.clusters = Dictionary(clusters.map { ($0.id, $0) }, uniquingKeysWith: { _, later in later })
    }

    public subscript(id: ClusterID) -> ClusterInfo? { clusters[id] }

    public func describe(cluster: ClusterID) -> String {
        clusters[cluster]?.name ?? cluster.description
    }

    public func describe(cluster: ClusterID, attribute: AttributeID) -> String {
        describe(cluster: cluster) + "." + (clusters[cluster]?.attributes[attribute] ?? attribute.description)
    }

    /// A command the server accepts (a request).
    public func describe(cluster: ClusterID, command: CommandID) -> String {
        describe(cluster: cluster) + "." + (clusters[cluster]?.acceptedCommands[command] ?? command.description)
    }

    public func describe(cluster: ClusterID, event: EventID) -> String {
        describe(cluster: cluster) + "." + (clusters[cluster]?.events[event] ?? event.description)
    }
}

extension ClusterRegistry {
    /// Every generated standard cluster.
    public static let standard = ClusterRegistry(MatterClusters.all)
}
