// Matter Device Library §1 (Base Device Type): a device type, its revision and the clusters an endpoint of it has.
/// Required and optional clusters follow the device-type XML: a cluster marked present is required; one marked absent
/// but not locked may be added, so it is optional.
public struct DeviceTypeDefinition: Hashable, Sendable {
    public let id: DeviceTypeID
    public let name: String
    /// nil where the definition gives none.
    public let revision: UInt16?
    public let deviceClass: DeviceTypeClass?
    public let scope: DeviceTypeScope?
    /// The device type this one extends (a dimmable light is a superset of an on/off light).
    public let superset: DeviceTypeID?
    public let requiredServerClusters: [ClusterID]
    public let optionalServerClusters: [ClusterID]
    public let requiredClientClusters: [ClusterID]
    public let optionalClientClusters: [ClusterID]

    public init(
        id: DeviceTypeID, name: String, revision: UInt16?, deviceClass: DeviceTypeClass?, scope: DeviceTypeScope?,
        superset: DeviceTypeID? = nil, requiredServerClusters: [ClusterID], optionalServerClusters: [ClusterID] = [],
        requiredClientClusters: [ClusterID] = [], optionalClientClusters: [ClusterID] = []
    ) {
        self.id = id
        self.name = name
        self.revision = revision
        self.deviceClass = deviceClass
        self.scope = scope
        self.superset = superset
        self.requiredServerClusters = requiredServerClusters
        self.optionalServerClusters = optionalServerClusters
        self.requiredClientClusters = requiredClientClusters
        self.optionalClientClusters = optionalClientClusters
    }
}

// Matter Device Library §1 device type classification: what kind of endpoint a device type describes.
public enum DeviceTypeClass: String, Hashable, Sendable {
    case simple = "Simple"
    case utility = "Utility"
    case node = "Node"
}

// Matter Device Library §1 device type classification: whether the type applies to an endpoint or the whole node.
public enum DeviceTypeScope: String, Hashable, Sendable {
    case endpoint = "Endpoint"
    case node = "Node"
}
