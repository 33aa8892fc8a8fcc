import MatterDataModel
import MatterInteraction

/// An attribute named as people write it, `Cluster.Attribute` (`OnOff.OnOff`, `LevelControl.CurrentLevel`,
/// `BasicInformation.VendorName`), resolved against the generated clusters; case does not matter.
public struct AttributeName: Hashable, Sendable, CustomStringConvertible {
    public let cluster: ClusterID
    public let attribute: AttributeID

    /// Nil when no cluster or no attribute of it has that name.
    public init?(_ text: String, clusters: [ClusterInfo] = MatterClusters.all) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2,
            let cluster = clusters.first(where: { $0.name.caseInsensitiveCompare(parts[0]) == .orderedSame }),
            let attribute = cluster.attributes.first(where: {
                $0.value.caseInsensitiveCompare(parts[1]) == .orderedSame
            })
        else { return nil }
        self.cluster = cluster.id
        self.attribute = attribute.key
    }

    public var description: String {
        ClusterRegistry.standard.describe(cluster: cluster, attribute: attribute)
    }

    /// The registry's name of a cached path: "OnOff.OnOff", or hex IDs for what the registry lacks.
    public static func describe(_ path: ConcreteAttributePath) -> String {
        ClusterRegistry.standard.describe(
            cluster: ClusterID(rawValue: path.cluster), attribute: AttributeID(rawValue: path.attribute))
    }
}
