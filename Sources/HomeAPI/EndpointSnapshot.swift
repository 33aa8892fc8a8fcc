import MatterInteraction
import MatterTLV

/// One endpoint of a node as the hub last heard it: its cached attribute values and connectivity, and the live side
/// that reaches its node. Two snapshots are equal when the endpoint's values and connectivity are.
struct EndpointSnapshot: Sendable, Hashable {
    let nodeID: UInt64
    let endpoint: UInt16
    let values: [ConcreteAttributePath: TLVElement]
    let connectivity: SourceConnectivity
    /// nil where nothing can be sent (a snapshot made for a test).
    let live: LiveNodes?

    init(nodeID: UInt64, endpoint: UInt16, cache: AttributeCache, connectivity: SourceConnectivity, live: LiveNodes?) {
        self.nodeID = nodeID
        self.endpoint = endpoint
        var values: [ConcreteAttributePath: TLVElement] = [:]
        for path in cache.paths where path.endpoint == endpoint {
            values[path] = cache.value(endpoint: endpoint, cluster: path.cluster, attribute: path.attribute)
        }
        self.values = values
        self.connectivity = connectivity
        self.live = live
    }

    /// Whether the endpoint reported any attribute of the cluster: a cluster it serves (ClusterRevision is mandatory).
    func hasCluster(_ cluster: UInt32) -> Bool {
        values.keys.contains { $0.cluster == cluster }
    }

    static func == (lhs: EndpointSnapshot, rhs: EndpointSnapshot) -> Bool {
        lhs.nodeID == rhs.nodeID && lhs.endpoint == rhs.endpoint && lhs.values == rhs.values
            && lhs.connectivity == rhs.connectivity
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(nodeID)
        hasher.combine(endpoint)
        hasher.combine(values)
        hasher.combine(connectivity)
    }
}
