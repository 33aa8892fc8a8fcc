import MatterDataModel
import MatterInteraction
import MatterTLV

/// One endpoint of a node as the hub last heard it: its cached attribute values and connectivity, and the live side
/// that reaches its node. Two snapshots are equal when the endpoint's values and connectivity are. The node's cache
/// is shared, not copied (a copy-on-write value), and a value is decoded only when a trait reads it.
struct EndpointSnapshot: Sendable, Hashable {
    let nodeID: UInt64
    let endpoint: UInt16
    let cache: AttributeCache
    let connectivity: SourceConnectivity
    /// nil where nothing can be sent (a snapshot made for a test).
    let context: HomeContext?

    init(
        nodeID: UInt64, endpoint: UInt16, cache: AttributeCache, connectivity: SourceConnectivity,
        context: HomeContext?
    ) {
        self.nodeID = nodeID
        self.endpoint = endpoint
        self.cache = cache
        self.connectivity = connectivity
        self.context = context
    }

    func value(_ path: ConcreteAttributePath) -> TLVElement? {
        cache.value(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute)
    }

    /// Whether the endpoint serves the cluster: its Descriptor's ServerList says (Matter Core §9.5.6.3), before any
    /// attribute of the cluster is reported (the commissioning's interview stores the Descriptor first); without a
    /// ServerList, whether it reported any attribute of the cluster (ClusterRevision is mandatory).
    func hasCluster(_ cluster: UInt32) -> Bool {
        if let served = try? cache.value(DescriptorCluster.Attributes.serverList, endpoint: endpoint) {
            return served.contains(ClusterID(rawValue: cluster))
        }
        return cache.paths(endpoint: endpoint).contains { $0.cluster == cluster }
    }

    static func == (lhs: EndpointSnapshot, rhs: EndpointSnapshot) -> Bool {
        lhs.nodeID == rhs.nodeID && lhs.endpoint == rhs.endpoint && lhs.connectivity == rhs.connectivity
            && lhs.cache.sameValues(endpoint: lhs.endpoint, as: rhs.cache)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(nodeID)
        hasher.combine(endpoint)
        cache.hashValues(endpoint: endpoint, into: &hasher)
        hasher.combine(connectivity)
    }
}
