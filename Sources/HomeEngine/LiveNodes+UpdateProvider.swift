import HomeHub
import MatterDataModel
import MatterInteraction
import MatterTLV

// Matter Core §11.21.7.5.1 (DefaultOTAProviders): a requestor asks its default providers for updates on a schedule of
// its own (connectedhomeip's: daily), so a device learns of an image the hub holds without being told. The hub names itself
// there, once per node per process, on the node's first contact: only when the device has a requestor and its list
// (fabric-scoped: this fabric's entries only) does not already name the hub's node on endpoint 0.
extension LiveNodes {
    private typealias Requestor = OtaSoftwareUpdateRequestorCluster

    /// Whether the node should be told the hub is its default OTA provider, by its cache.
    static func needsUpdateProvider(_ cache: AttributeCache, hubNodeID: UInt64) -> Bool {
        let served = (try? cache.value(DescriptorCluster.Attributes.serverList, endpoint: 0)) ?? []
        guard served.contains(Requestor.id) else { return false }
        let providers = (try? cache.value(Requestor.Attributes.defaultOTAProviders, endpoint: 0)) ?? []
        return !providers.contains { $0.providerNodeID == hubNodeID && $0.endpoint == 0 }
    }

    /// Writes the hub as the node's default provider, in the background and best effort (a node that refuses or is out
    /// of reach is asked again at its first contact in the next process; AnnounceOTAProvider still reaches it).
    func placeUpdateProvider(on connection: NodeConnection, cache: AttributeCache, hubNodeID: UInt64) {
        guard Self.needsUpdateProvider(cache, hubNodeID: hubNodeID) else { return }
        // No fabric index: the device gives the entry the writer's fabric (a fabric-scoped struct, §7.13.6).
        let location = Requestor.ProviderLocation(providerNodeID: hubNodeID, endpoint: 0)
        let attribute = Requestor.Attributes.defaultOTAProviders
        Task {
            _ = try? await connection.write(
                TLVElement(.array([TLVElement(location.tlvValue())])), endpoint: 0,
                cluster: attribute.cluster.rawValue, attribute: attribute.id.rawValue, timedWindow: nil)
        }
    }
}
