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

    /// The attribute `text` names, or bad input saying what is wrong with it: not `Cluster.Attribute`, an unknown
    /// cluster, or an attribute its cluster does not have, with the name meant when it looks like a typo.
    static func resolving(_ text: String, example: String) throws(CommandLineError) -> AttributeName {
        if let name = AttributeName(text) { return name }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .invalidInput("unknown attribute '\(text)': write Cluster.Attribute, e.g. \(example)")
        }
        guard
            let cluster = MatterClusters.all.first(where: { $0.name.caseInsensitiveCompare(parts[0]) == .orderedSame })
        else {
            throw .invalidInput(
                "unknown cluster '\(parts[0])' in '\(text)'"
                    + NearMiss.suggestion(for: String(parts[0]), among: MatterClusters.all.map(\.name))
                    + ": write Cluster.Attribute, e.g. \(example)")
        }
        throw .invalidInput(
            "\(cluster.name) has no attribute \(parts[1])"
                + NearMiss.suggestion(for: String(parts[1]), among: cluster.attributes.values) + " (its attributes: "
                + cluster.attributes.values.sorted().joined(separator: ", ") + ")")
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
