import Foundation
import HomeHub
import HomeRecords
import HubWire
import MatterCrypto
import MatterDataModel
import MatterInteraction

/// A device being shared: its node, what its window's code carries, and how messages name it.
public struct SharedDevice: Codable, Sendable, Hashable {
    public let nodeID: UInt64
    public let vendorID: UInt16
    public let productID: UInt16
    /// "Desk lamp (391D788B9528D5FA-1)".
    public let label: String

    public init(nodeID: UInt64, vendorID: UInt16, productID: UInt16, label: String) {
        self.nodeID = nodeID
        self.vendorID = vendorID
        self.productID = productID
        self.label = label
    }
}

/// Sharing a device with another ecosystem, over the hub's live session to the node: what its operations
/// (`OpenCommissioningWindow`, `ReadFabrics`, …) share. Whoever may add devices to the device's structure may share
/// it.
extension HubEngine {
    /// Read across fabrics (not fabric-filtered), in index order, this hub's marked.
    func fabrics(_ device: SharedDevice) async throws(HomeError) -> [DeviceFabric] {
        let connection = try await online(device)
        let fabricsAttribute = OperationalCredentialsCluster.Attributes.fabrics
        let currentAttribute = OperationalCredentialsCluster.Attributes.currentFabricIndex
        let report: InteractionReport
        do {
            report = try await connection.read(
                [fabricsAttribute.path(endpoint: 0), currentAttribute.path(endpoint: 0)], isFabricFiltered: false)
        } catch {
            throw HomeError(error, command: "read OperationalCredentials.Fabrics")
        }
        var cache = AttributeCache()
        cache.apply(report.attributeReports)
        let descriptors: [OperationalCredentialsCluster.FabricDescriptorStruct]
        let current: UInt8?
        do {
            descriptors = try cache.value(fabricsAttribute, endpoint: 0) ?? []
            current = try cache.value(currentAttribute, endpoint: 0)
        } catch {
            throw HomeError(.dataLoss, "\(device.label): OperationalCredentials.Fabrics does not decode: \(error)")
        }
        return descriptors.compactMap { descriptor in
            guard let index = descriptor.fabricIndex else { return nil }
            return DeviceFabric(
                index: index, vendorID: descriptor.vendorID, vendorName: VendorNames.name(of: descriptor.vendorID),
                label: descriptor.label, nodeID: descriptor.nodeID, fabricID: descriptor.fabricID,
                rootKeyFingerprint: Self.fingerprint(descriptor.rootPublicKey), isThisHub: index == current)
        }.sorted { $0.index < $1.index }
    }

    private static func fingerprint(_ key: [UInt8]) -> String {
        SHA256.hash(key).prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }

    /// A refused window: BUSY says one is open already (or a commissioning is under way).
    static func windowRefusal(_ error: NodeConnectionError, _ device: SharedDevice, command: String) -> HomeError {
        if case .interaction(let interaction) = error,
            interaction.clusterStatus == AdministratorCommissioningCluster.StatusCode.busy.rawValue
        {
            return HomeError(
                .failedPrecondition,
                "\(device.label) already has a commissioning window open, or is being commissioned: "
                    + "try again once it closes, or revoke it first")
        }
        return HomeError(error, command: command)
    }

    /// The node's live connection: what is sent on it goes as soon as its session is up.
    func online(_ device: SharedDevice) async throws(HomeError) -> NodeConnection {
        try await live.connection(to: device.nodeID)
    }

    /// The node's live connection, once its root endpoint is known to serve Administrator Commissioning.
    func administered(_ device: SharedDevice) async throws(HomeError) -> NodeConnection {
        let connection = try await online(device)
        let serverList = DescriptorCluster.Attributes.serverList
        if let served = try? await connection.cache.value(serverList, endpoint: 0),
            !served.contains(AdministratorCommissioningCluster.id)
        {
            throw HomeError(.unimplemented, "\(device.label) has no Administrator Commissioning: it cannot be shared")
        }
        return connection
    }
}
