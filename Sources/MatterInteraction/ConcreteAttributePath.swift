// Matter Core §8.9.2 Attribute Path, concrete: one attribute of one cluster instance, the key of the attribute cache.
public struct ConcreteAttributePath: Hashable, Sendable, Codable, CustomStringConvertible {
    public var endpoint: UInt16
    public var cluster: UInt32
    public var attribute: UInt32

    public init(endpoint: UInt16, cluster: UInt32, attribute: UInt32) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.attribute = attribute
    }

    public var clusterPath: ConcreteClusterPath {
        ConcreteClusterPath(endpoint: endpoint, cluster: cluster)
    }

    public var description: String {
        "endpoint \(endpoint), cluster \(hex32(cluster)), attribute \(hex32(attribute))"
    }
}

/// One cluster instance: the unit that carries a data version.
public struct ConcreteClusterPath: Hashable, Sendable, Codable, CustomStringConvertible {
    public var endpoint: UInt16
    public var cluster: UInt32

    public init(endpoint: UInt16, cluster: UInt32) {
        self.endpoint = endpoint
        self.cluster = cluster
    }

    public var description: String {
        "endpoint \(endpoint), cluster \(hex32(cluster))"
    }
}
