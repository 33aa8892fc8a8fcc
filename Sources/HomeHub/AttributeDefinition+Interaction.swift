import HomeRecords
import MatterDataModel
import MatterInteraction

extension AttributeDefinition {
    /// The path of this attribute on one endpoint, or on every endpoint when `endpoint` is nil.
    public func path(endpoint: UInt16?) -> AttributePathIB {
        AttributePathIB(endpoint: endpoint, cluster: cluster.rawValue, attribute: id.rawValue)
    }

    /// "BasicInformation.VendorName", for messages; a cluster the standard registry lacks shows as its ID.
    public var qualifiedName: String {
        ClusterRegistry.standard.describe(cluster: cluster) + "." + name
    }
}
