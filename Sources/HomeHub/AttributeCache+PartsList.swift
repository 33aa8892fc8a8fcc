import HomeRecords
import MatterDataModel
import MatterInteraction

extension AttributeCache {
    /// Applies a whole report as `apply` does, then follows the root's PartsList (Matter Core §9.5.6.4: it names every
    /// other endpoint of the node): when the report changed it, an endpoint it no longer names is gone (a bridge
    /// dropped a bridged device) and so are its values. Returns every path whose value differs afterwards, the
    /// forgotten ones included.
    @discardableResult
    public mutating func applyFollowingEndpoints(_ reports: [AttributeReportIB]) -> Set<ConcreteAttributePath> {
        var changed = apply(reports)
        let rootParts = ConcreteAttributePath(
            endpoint: 0, cluster: DescriptorCluster.id.rawValue,
            attribute: DescriptorCluster.Attributes.partsList.id.rawValue)
        if changed.contains(rootParts), let parts = try? value(DescriptorCluster.Attributes.partsList, endpoint: 0) {
            changed.formUnion(keepOnly(endpoints: Set(parts + [0])))
        }
        return changed
    }
}
