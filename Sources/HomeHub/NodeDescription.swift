import HomeRecords
import MatterDataModel

/// What an interview learned about a node: who made it and what its endpoints are.
public struct NodeDescription: Hashable, Sendable {
    public var vendorID: UInt16
    public var vendorName: String
    public var productID: UInt16
    public var productName: String
    public var serialNumber: String?
    public var uniqueID: String?
    public var softwareVersionString: String?
    /// Every endpoint the node's Descriptor clusters describe, in endpoint order.
    public var endpoints: [EndpointDescription]

    public init(
        vendorID: UInt16, vendorName: String, productID: UInt16, productName: String, serialNumber: String? = nil,
        uniqueID: String? = nil, softwareVersionString: String? = nil, endpoints: [EndpointDescription]
    ) {
        self.vendorID = vendorID
        self.vendorName = vendorName
        self.productID = productID
        self.productName = productName
        self.serialNumber = serialNumber
        self.uniqueID = uniqueID
        self.softwareVersionString = softwareVersionString
        self.endpoints = endpoints
    }

    /// Each endpoint's device types as the store keeps them: once each, although some devices (CircuitMatter) list
    /// a device type twice on one endpoint.
    var endpointDeviceTypes: [EndpointDeviceType] {
        var seen = Set<[UInt32]>()
        return endpoints.flatMap { endpoint in
            endpoint.deviceTypes.map {
                EndpointDeviceType(
                    endpoint: endpoint.endpoint, deviceType: $0.deviceType.rawValue, revision: $0.revision)
            }
        }.filter { seen.insert([UInt32($0.endpoint), $0.deviceType]).inserted }
    }

    /// Each endpoint's TagList as the store keeps it, in the device's order.
    var endpointSemanticTags: [EndpointSemanticTag] {
        endpoints.flatMap { endpoint in
            endpoint.tags.map {
                EndpointSemanticTag(
                    endpoint: endpoint.endpoint, manufacturerCode: $0.mfgCode.optional, namespaceID: $0.namespaceID,
                    tag: $0.tag, label: $0.label?.optional)
            }
        }
    }
}

/// One endpoint as its Descriptor cluster describes it.
public struct EndpointDescription: Hashable, Sendable {
    public var endpoint: UInt16
    public var deviceTypes: [DescriptorCluster.DeviceTypeStruct]
    public var serverClusters: [ClusterID]
    public var clientClusters: [ClusterID]
    public var parts: [UInt16]
    /// Its TagList: empty when the endpoint has none.
    public var tags: [SemanticTagStruct]
    /// A bridged device's name as its bridge gives it (Bridged Device Basic Information NodeLabel), when known.
    public var label: String?

    public init(
        endpoint: UInt16, deviceTypes: [DescriptorCluster.DeviceTypeStruct], serverClusters: [ClusterID],
        clientClusters: [ClusterID],
        parts: [UInt16], tags: [SemanticTagStruct] = [], label: String? = nil
    ) {
        self.endpoint = endpoint
        self.deviceTypes = deviceTypes
        self.serverClusters = serverClusters
        self.clientClusters = clientClusters
        self.parts = parts
        self.tags = tags
        self.label = label
    }
}
