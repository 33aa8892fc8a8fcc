import MatterDataModel
import MatterInteraction
import MatterTLV

// Matter Core §11.1 Basic Information cluster, server: the device's identity, its writable NodeLabel and Location.
public struct BasicInformationServer: ClusterServer {
    private typealias Cluster = BasicInformationCluster
    private typealias Attributes = BasicInformationCluster.Attributes

    public var nodeLabel = ""
    /// §11.1.5.7: an ISO 3166-1 alpha-2 code; "XX" means unknown.
    public var location = "XX"

    public init() {}

    public var description: ClusterDescription {
        ClusterDescription(
            id: Cluster.id.rawValue, revision: Cluster.revision,
            attributes: [
                AttributeDescription(Attributes.dataModelRevision), AttributeDescription(Attributes.vendorName),
                AttributeDescription(Attributes.vendorID), AttributeDescription(Attributes.productName),
                AttributeDescription(Attributes.productID), AttributeDescription(Attributes.nodeLabel),
                AttributeDescription(Attributes.location),
                AttributeDescription(Attributes.hardwareVersion),
                AttributeDescription(Attributes.hardwareVersionString),
                AttributeDescription(Attributes.softwareVersion),
                AttributeDescription(Attributes.softwareVersionString),
                AttributeDescription(Attributes.serialNumber), AttributeDescription(Attributes.uniqueID),
                AttributeDescription(Attributes.capabilityMinima),
                AttributeDescription(Attributes.specificationVersion),
                AttributeDescription(Attributes.maxPathsPerInvoke),
            ])
    }

    public func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus> {
        let identity = node.identity
        return switch attribute {
        case Attributes.dataModelRevision.id.rawValue: .success(.unsigned(UInt64(NodeConstants.dataModelRevision)))
        case Attributes.vendorName.id.rawValue: .success(.utf8(identity.vendorName))
        case Attributes.vendorID.id.rawValue: .success(.unsigned(UInt64(identity.vendorID)))
        case Attributes.productName.id.rawValue: .success(.utf8(identity.productName))
        case Attributes.productID.id.rawValue: .success(.unsigned(UInt64(identity.productID)))
        case Attributes.nodeLabel.id.rawValue: .success(.utf8(nodeLabel))
        case Attributes.location.id.rawValue: .success(.utf8(location))
        case Attributes.hardwareVersion.id.rawValue: .success(.unsigned(UInt64(identity.hardwareVersion)))
        case Attributes.hardwareVersionString.id.rawValue: .success(.utf8(String(identity.hardwareVersion)))
        case Attributes.softwareVersion.id.rawValue: .success(.unsigned(UInt64(identity.softwareVersion)))
        case Attributes.softwareVersionString.id.rawValue: .success(.utf8(identity.softwareVersionString))
        case Attributes.serialNumber.id.rawValue: .success(.utf8(identity.serialNumber))
        case Attributes.uniqueID.id.rawValue: .success(.utf8(identity.uniqueID))
        case Attributes.capabilityMinima.id.rawValue:
            .success(
                Cluster.CapabilityMinimaStruct(
                    caseSessionsPerFabric: NodeConstants.caseSessionsPerFabric,
                    subscriptionsPerFabric: NodeConstants.subscriptionsPerFabric
                ).tlvValue())
        case Attributes.specificationVersion.id.rawValue:
            .success(.unsigned(UInt64(NodeConstants.specificationVersion)))
        // The engine answers every path of one InvokeRequest.
        case Attributes.maxPathsPerInvoke.id.rawValue: .success(.unsigned(1))
        default: .failure(.unsupportedAttribute)
        }
    }

    /// §11.1.5.6 NodeLabel: at most 32 characters; §11.1.5.7 Location: two characters.
    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        guard case .utf8(let text) = value.value else { return .invalidDataType }
        switch attribute {
        case Attributes.nodeLabel.id.rawValue:
            guard text.utf8.count <= 32 else { return .constraintError }
            nodeLabel = text
        case Attributes.location.id.rawValue:
            guard text.utf8.count == 2 else { return .constraintError }
            location = text
        default:
            return .unsupportedWrite
        }
        node.markChanged(endpoint: request.endpoint, cluster: id, attributes: [attribute])
        node.effects.append(.persist)
        return .success
    }

    public var persistentState: TLVValue? {
        .structure([TLVElement(tag: .context(0), .utf8(nodeLabel)), TLVElement(tag: .context(1), .utf8(location))])
    }

    public mutating func restore(_ state: TLVElement) {
        if case .utf8(let label)? = state[context: 0]?.value { nodeLabel = label }
        if case .utf8(let place)? = state[context: 1]?.value { location = place }
    }
}
