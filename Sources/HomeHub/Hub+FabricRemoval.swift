import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterPlatform

extension Hub {
    /// Asks a commissioned node to leave the hub's fabric (Matter Core §11.18.6.12 RemoveFabric, for the fabric index it
    /// reports as current on our CASE session), whatever state the store has the node in. A device left with no fabric
    /// opens its commissioning window again.
    /// Gives up after `HubTiming.fabricRemoval`.
    public func removeFromFabric(_ nodeID: UInt64, interfaces: [String]) async throws {
        try await withDeadline(HubTiming.fabricRemoval) { [self] in
            try await removeFromFabricUnbounded(nodeID, interfaces: interfaces)
        }
    }

    private func removeFromFabricUnbounded(_ nodeID: UInt64, interfaces: [String]) async throws {
        let link = try await link()
        // Any state: a commissioning interrupted after CommissioningComplete left the NOC on the device, not the fail-safe.
        guard let record = try await store.node(nodeID) else { throw HubError.unknownNode(nodeID) }
        let node = try await establishSession(to: record, interfaces: interfaces, over: link.transport)
        // The device that left the fabric has dropped the session already; one that did not is told it is over.
        defer { Task { await link.transport.closeSession(node.session) } }
        let client = link.client(of: node.session, peerParameters: node.peerParameters)
        let currentFabricIndex = OperationalCredentialsCluster.Attributes.currentFabricIndex
        let report = try await client.read([currentFabricIndex.path(endpoint: 0)])
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        guard let fabricIndex = try cache.value(currentFabricIndex, endpoint: 0) else {
            throw HubError.missingAttribute(currentFabricIndex.qualifiedName)
        }
        let response = try await client.invoke(
            OperationalCredentialsCluster.Commands.RemoveFabric(fabricIndex: fabricIndex), endpoint: 0,
            timeout: HubTiming.rollbackStep)
        guard response.statusCode == .ok else {
            throw CommissioningFailure(.refused, "the device refused RemoveFabric: \(response.statusCode)")
        }
    }
}
