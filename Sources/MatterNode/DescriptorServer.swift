import MatterDataModel
import MatterInteraction
import MatterTLV

// Matter Core §9.5 Descriptor cluster, server: what an endpoint is (device types), what it serves, and (on the root
// endpoint) which endpoints the node has. Made anew whenever the node's endpoints change (a bridge's bridged devices).
public struct DescriptorServer: ClusterServer {
    private typealias Attributes = DescriptorCluster.Attributes

    public let deviceTypes: [DescriptorCluster.DeviceTypeStruct]
    public let serverClusters: [UInt32]
    public let parts: [UInt16]
    /// §9.5.6.5 TagList, served (with the TagList feature) only when the endpoint has tags.
    public let tags: [SemanticTagStruct]

    public init(
        deviceTypes: [DescriptorCluster.DeviceTypeStruct], serverClusters: [UInt32], parts: [UInt16],
        tags: [SemanticTagStruct] = []
    ) {
        self.deviceTypes = deviceTypes
        self.serverClusters = serverClusters
        self.parts = parts
        self.tags = tags
    }

    public var description: ClusterDescription {
        ClusterDescription(
            id: DescriptorCluster.id.rawValue, revision: DescriptorCluster.revision,
            featureMap: tags.isEmpty ? 0 : DescriptorCluster.Feature.tagList.rawValue,
            attributes: [
                AttributeDescription(Attributes.deviceTypeList), AttributeDescription(Attributes.serverList),
                AttributeDescription(Attributes.clientList), AttributeDescription(Attributes.partsList),
            ]
                + (tags.isEmpty ? [] : [AttributeDescription(Attributes.tagList)]))
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        switch attribute {
        case Attributes.deviceTypeList.id.rawValue: .success(deviceTypes.tlvValue())
        case Attributes.serverList.id.rawValue:
            .success(.array(serverClusters.map { TLVElement(.unsigned(UInt64($0))) }))
        case Attributes.clientList.id.rawValue: .success(.array([]))
        case Attributes.partsList.id.rawValue: .success(.array(parts.map { TLVElement(.unsigned(UInt64($0))) }))
        case Attributes.tagList.id.rawValue where !tags.isEmpty: .success(tags.tlvValue())
        default: .failure(.unsupportedAttribute)
        }
    }
}
