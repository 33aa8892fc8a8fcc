import HomeRecords
import MatterDataModel
import MatterInteraction

extension AttributeCache {
    /// The cached value of `attribute` on `endpoint` decoded as its type; nil when the cache does not hold it:
    /// `cache.value(BasicInformationCluster.Attributes.vendorName, endpoint: 0)`.
    public func value<Value>(
        _ attribute: AttributeDefinition<Value>, endpoint: UInt16
    ) throws(AttributeDecodingError) -> Value? {
        guard
            let element = value(
                endpoint: endpoint, cluster: attribute.cluster.rawValue, attribute: attribute.id.rawValue)
        else {
            return nil
        }
        do {
            return try Value(tlv: element)
        } catch {
            throw AttributeDecodingError(attribute: attribute.qualifiedName, endpoint: endpoint, error: error)
        }
    }
}
