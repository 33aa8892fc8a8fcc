import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterDataModel
import MatterInteraction
import MatterTLV

/// A device's own endpoint reached directly, whatever its device types: for a tool whose commands name a cluster
/// rather than a device type (`home on`, `home level`, `home read`), and an app that shows a node's raw attributes.
extension HomeDevice {
    /// The device's node and (its first part's) endpoint.
    public var address: DeviceID {
        DeviceID(nodeID: nodeID, endpoint: parts.first?.endpoint ?? 0)
    }

    /// The trait of the device's endpoint (the first part's, for a multipart device), once its node has been
    /// followed and had its first contact; nil when the endpoint does not serve the trait's cluster. Not
    /// `waitingForFirstContact`, a trait the node's cache shows already (the hub's stored copy, until the node
    /// reports) comes at once: a one-shot command then acts as soon as the node's session is up, whether its
    /// subscription follows or not.
    public func liveTrait<T: Trait>(_ type: T.Type, waitingForFirstContact: Bool = true) async -> T? {
        if !waitingForFirstContact {
            await context.follow(nodeID, untilFirstContact: false)
            if let cached = TraitCollection(snapshot: endpointSnapshot())[type] { return cached }
        }
        await context.follow(nodeID)
        return TraitCollection(snapshot: endpointSnapshot())[type]
    }

    /// What the device's endpoint serves, from its node's cached Descriptor ServerList; nil before the node reported it.
    public var servedClusters: [ClusterID]? {
        let list = DescriptorCluster.Attributes.serverList
        return try? cachedValue(
            endpoint: parts.first?.endpoint ?? 0, cluster: list.cluster.rawValue, attribute: list.id.rawValue
        ).map { element in try [ClusterID](tlv: element) }
    }

    /// Every attribute path of the device's node its cache holds; nil before the node is followed.
    public var cachedPaths: [ConcreteAttributePath]? {
        context.model.view(of: nodeID)?.cache.paths
    }

    /// One attribute as the node's cache holds it: for `home read`, which shows any attribute of any cluster.
    public func cachedValue(endpoint: UInt16, cluster: UInt32, attribute: UInt32) -> TLVElement? {
        context.model.view(of: nodeID)?.cache.value(endpoint: endpoint, cluster: cluster, attribute: attribute)
    }

    /// Every endpoint of the device's node with its device types, and their semantic tags, as the hub's store keeps
    /// them.
    public func nodeEndpoints() async throws(HomeError) -> (
        [EndpointDeviceType], [EndpointSemanticTag]
    ) {
        let endpoints = try await context.perform(ReadNodeEndpoints(nodeID: nodeID))
        return (endpoints.deviceTypes, endpoints.tags)
    }

    /// Starts following the device's node live and returns once it had its first contact.
    public func follow() async {
        await context.follow(nodeID)
    }

    private func endpointSnapshot() -> EndpointSnapshot {
        let view = context.model.view(of: nodeID)
        return EndpointSnapshot(
            nodeID: nodeID, endpoint: parts.first?.endpoint ?? 0, cache: view?.cache ?? AttributeCache(),
            connectivity: view?.connectivity ?? .unknown, context: context)
    }
}

extension OnOffTrait {
    /// What `toggleFallingBackToOnOff()` sent.
    public typealias ToggleOutcome = HubWire.ToggleOutcome

    /// Toggle; for a device that does not accept it (its AcceptedCommandList lacks Toggle, or it refuses Toggle as
    /// an unsupported command: CircuitMatter lists it yet refuses it), On or Off, the opposite of its cached OnOff.
    /// The rule is the hub's (`NodeConnection.toggle`), carried out where the node's session is.
    public func toggleFallingBackToOnOff() async throws(HomeError) -> ToggleOutcome {
        guard let context = context.snapshot.context else {
            throw HomeError(.failedPrecondition, "this trait was not read from a home: it cannot send commands")
        }
        return try await context.perform(
            ToggleOnOff(nodeID: self.context.snapshot.nodeID, endpoint: self.context.endpoint))
    }
}
