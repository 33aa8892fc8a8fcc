import MatterDataModel
import MatterNode

// Matter Core §9.12 Bridge: bridged devices come and go while the node runs. The Aggregator's PartsList and the
// root's follow, and subscribers hear of them; a new endpoint is reported whole (every attribute of every cluster),
// and the paths of a removed one simply stop (§9.5.6.4: the root's PartsList is the node's list of endpoints).
extension NodeDataModel {
    /// The endpoints that are bridged devices, in endpoint order.
    public var bridgedEndpoints: [UInt16] {
        composition.filter(\.isBridgedDevice).map(\.id).sorted()
    }

    /// Adds `endpoint` as a part of the Aggregator.
    mutating func addBridged(_ endpoint: Endpoint) throws(DeviceError) {
        guard let aggregator = composition.firstIndex(where: \.isAggregator) else {
            throw .bridging("this device is not a bridge: it has no Aggregator endpoint to add a bridged device to")
        }
        composition[aggregator].parts.append(endpoint.id)
        composition.append(endpoint)
        describeEndpoints()
        markPartsListChanged(of: [0, composition[aggregator].id])
        for cluster in composition[composition.count - 1].clusters {
            node.markChanged(
                endpoint: endpoint.id, cluster: cluster.id, attributes: cluster.description.allAttributeIDs)
        }
    }

    /// Removes the bridged device on `endpoint`, from its Aggregator's parts too.
    mutating func removeBridged(_ endpoint: UInt16) throws(DeviceError) {
        guard let index = composition.firstIndex(where: { $0.id == endpoint }) else {
            throw .bridging("endpoint \(endpoint) does not exist (bridged devices: \(Self.list(bridgedEndpoints)))")
        }
        guard composition[index].isBridgedDevice else {
            throw .bridging(
                "endpoint \(endpoint) is not a bridged device (bridged devices: \(Self.list(bridgedEndpoints)))")
        }
        composition.remove(at: index)
        let holders = composition.filter { $0.parts.contains(endpoint) }.map(\.id)
        for index in composition.indices {
            composition[index].parts.removeAll { $0 == endpoint }
        }
        describeEndpoints()
        markPartsListChanged(of: [0] + holders)
    }

    private mutating func markPartsListChanged(of endpoints: [UInt16]) {
        for endpoint in Set(endpoints) {
            node.markChanged(
                endpoint: endpoint, cluster: DescriptorCluster.id.rawValue,
                attributes: [DescriptorCluster.Attributes.partsList.id.rawValue])
        }
    }

    private static func list(_ endpoints: [UInt16]) -> String {
        endpoints.isEmpty ? "none" : endpoints.map(String.init).joined(separator: ", ")
    }
}
