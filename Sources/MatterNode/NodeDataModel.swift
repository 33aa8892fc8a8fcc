import MatterDataModel
import MatterInteraction
import MatterTLV

// Matter Core §7 Data Model, §6.6 Access Control: the device's endpoints and cluster servers behind the Interaction
// Model engine, with its access control lists enforced.
public struct NodeDataModel: DataModelProvider {
    public var node: NodeState
    /// The endpoints, each with its Descriptor; a bridge adds and removes bridged ones (`NodeDataModel+Bridge`).
    package var composition: [Endpoint]

    /// The root node and `applicationEndpoints`, each given its Descriptor (the root's lists every other endpoint,
    /// an aggregator its own parts).
    public init(node: NodeState, root: Endpoint, applicationEndpoints: [Endpoint] = []) {
        self.node = node
        composition = [root] + applicationEndpoints
        describeEndpoints()
    }

    /// Gives every endpoint a Descriptor that says what it is now, replacing the one it had: its device types and
    /// clusters, and its parts (the root's are every other endpoint of the node).
    package mutating func describeEndpoints() {
        let others = composition.map(\.id).filter { $0 != 0 }
        composition = composition.map { endpoint in
            var endpoint = endpoint
            endpoint.clusters.removeAll { $0.id == DescriptorCluster.id.rawValue }
            let descriptor = DescriptorServer(
                deviceTypes: endpoint.deviceTypes.map {
                    DescriptorCluster.DeviceTypeStruct(deviceType: $0.id, revision: $0.revision ?? 1)
                },
                serverClusters: ([DescriptorCluster.id.rawValue] + endpoint.clusters.map(\.id)).sorted(),
                parts: endpoint.id == 0 ? others : endpoint.parts, tags: endpoint.tags)
            endpoint.clusters = ([descriptor] + endpoint.clusters).sorted { $0.id < $1.id }
            return endpoint
        }
    }

    public var endpoints: [UInt16] { composition.map(\.id).sorted() }

    public func clusters(on endpoint: UInt16) -> [ClusterDescription] {
        composition.first { $0.id == endpoint }?.clusters.map(\.description) ?? []
    }

    private func locate(_ endpoint: UInt16, _ cluster: UInt32) -> (Int, Int)? {
        guard let e = composition.firstIndex(where: { $0.id == endpoint }),
            let c = composition[e].clusters.firstIndex(where: { $0.id == cluster })
        else { return nil }
        return (e, c)
    }

    public func read(
        _ path: ConcreteAttributePath, isFabricFiltered: Bool, context: AccessContext
    ) -> Result<TLVValue, InteractionModelStatus> {
        guard let (e, c) = locate(path.endpoint, path.cluster) else { return .failure(.unsupportedCluster) }
        let request = ClusterRequest(endpoint: path.endpoint, context: context, isFabricFiltered: isFabricFiltered)
        return composition[e].clusters[c].read(path.attribute, in: node, request: request)
    }

    public func dataVersion(of cluster: ConcreteClusterPath) -> UInt32 {
        node.dataVersion(of: cluster)
    }

    public mutating func write(
        _ path: ConcreteAttributePath, value: TLVElement, context: AccessContext
    ) -> InteractionModelStatus {
        guard let (e, c) = locate(path.endpoint, path.cluster) else { return .unsupportedCluster }
        let status = composition[e].clusters[c].write(
            path.attribute, value: value, in: &node, request: ClusterRequest(endpoint: path.endpoint, context: context))
        deliverSignals()
        return status
    }

    public mutating func invoke(_ path: CommandPathIB, fields: TLVElement?, context: AccessContext) -> CommandOutcome {
        guard let (e, c) = locate(path.endpoint, path.cluster) else { return .status(.unsupportedCluster) }
        let outcome = composition[e].clusters[c].invoke(
            path.command, fields: fields, in: &node, request: ClusterRequest(endpoint: path.endpoint, context: context))
        deliverSignals()
        return outcome
    }

    public func events(since eventNumber: UInt64) -> [EventDataIB] {
        node.events.filter { $0.eventNumber >= eventNumber }
    }

    /// Records an event with the next event number (§7.14.2.1), for subscribers and readers.
    public mutating func record(_ path: EventPathIB, priority: EventPriority, data: TLVElement?) {
        node.record(path, priority: priority, data: data)
    }

    /// Lets `body` change every cluster server of `endpoint`, or of every endpoint when nil, in endpoint and cluster
    /// order, then hands the signals they raised to their endpoints' clusters. How a virtual device's simulation and a
    /// person's actions reach its clusters.
    public mutating func updateClusters(
        on endpoint: UInt16? = nil, _ body: (_ endpoint: UInt16, inout any ClusterServer, inout NodeState) -> Void
    ) {
        for e in composition.indices where endpoint == nil || composition[e].id == endpoint {
            for c in composition[e].clusters.indices {
                body(composition[e].id, &composition[e].clusters[c], &node)
            }
        }
        deliverSignals()
    }

    /// §11.10.7.2.2: the fail-safe's time is up; the root's clusters hear of it and undo what they did under it.
    public mutating func expireFailSafe() {
        node.expireFailSafe()
        deliverSignals()
    }

    /// Hands each signal to every cluster of its endpoint. A receiver may raise signals of its own (the fail-safe's
    /// end makes Network Commissioning revert, which tells the diagnostics cluster); they are handed on in a next
    /// round, at most `NodeConstants.endpointSignalRounds` deep, so that two clusters that answered each other could not loop.
    private mutating func deliverSignals() {
        for _ in 0..<NodeConstants.endpointSignalRounds {
            let signals = node.signals
            node.signals = []
            guard !signals.isEmpty else { return }
            for (endpoint, signal) in signals {
                guard let e = composition.firstIndex(where: { $0.id == endpoint }) else { continue }
                for c in composition[e].clusters.indices {
                    composition[e].clusters[c].receive(signal, in: &node, endpoint: endpoint)
                }
            }
        }
        node.signals = []
    }

    /// §6.6.2: a PASE session of an open commissioning window is an implicit administrator; every other subject
    /// needs an entry of its fabric's ACL.
    public func isAllowed(_ request: AccessRequest, for context: AccessContext) -> Bool {
        if context.authMode == .pase { return context.isCommissioning }
        guard let fabric = node.fabric(context.fabricIndex) else { return false }
        return fabric.accessControl.contains { entry in
            entry.grants(request, to: context) { endpoint in
                composition.first { $0.id == endpoint }?.deviceTypes.map(\.id.rawValue) ?? []
            }
        }
    }

    // MARK: Persistence

    /// The persistent values of every cluster, keyed "endpoint/cluster".
    public var persistentClusterState: [String: [UInt8]] {
        var state: [String: [UInt8]] = [:]
        for endpoint in composition {
            for cluster in endpoint.clusters {
                if let value = cluster.persistentState {
                    state["\(endpoint.id)/\(cluster.id)"] = TLVWriter.encode(TLVElement(value))
                }
            }
        }
        return state
    }

    public mutating func restoreClusterState(_ state: [String: [UInt8]]) {
        for e in composition.indices {
            for c in composition[e].clusters.indices {
                let key = "\(composition[e].id)/\(composition[e].clusters[c].id)"
                if let bytes = state[key], let element = try? TLVReader.decode(bytes) {
                    composition[e].clusters[c].restore(element)
                }
            }
        }
    }
}
