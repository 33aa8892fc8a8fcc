import HomeRecords
import MatterCrypto
import MatterDataModel
import MatterInteraction
import MatterNode

/// The hub as a Matter node on its own fabric (Matter Core §2.11: every participant of a fabric is a node): the
/// fabric's authority is fabric 1 of its own fabric table, never commissioned into another, and its endpoint 0 serves
/// Descriptor, Basic Information, Access Control and the OTA Software Update Provider. The devices of its fabric open CASE to it (to fetch a firmware
/// image, to check in when they wake); its ACL lets them read what it serves and nothing more, never Administer.
enum HubNode {
    /// Matter Core §9.10.4.5: one entry for every CASE subject of the fabric (only the hub issues NOCs on it, so
    /// every one is a device of this home), View on every cluster of the node; and Operate on the OTA provider
    /// cluster of endpoint 0, whose commands (QueryImage and the rest) need it.
    static let accessControl = [
        AccessControlEntry(privilege: .view, authMode: .case, subjects: []),
        AccessControlEntry(
            privilege: .operate, authMode: .case, subjects: [],
            targets: [.init(cluster: OtaSoftwareUpdateProviderCluster.id.rawValue, endpoint: 0)]),
    ]

    /// The hub's node: its fabric from the authority's credentials, and endpoint 0; its group message counter resumes
    /// where the store says.
    static func dataModel(
        authority: FabricAuthority, groupMessageCounter: UInt32?, provider: OTAProvider
    ) throws(NodeError) -> NodeDataModel {
        let credentials = authority.operationalCredentials
        let fabric = try Fabric(
            index: NodeConstants.fabricIndices.lowerBound, rootCertificate: authority.rootCertificateTLV,
            noc: credentials.noc, icac: credentials.icac, ipkEpochKey: authority.fabric.ipkEpochKey,
            operationalKey: credentials.operationalKey.rawRepresentation, vendorID: FabricAuthority.adminVendorID,
            label: "", accessControl: accessControl)
        let state = NodeState(
            identity: identity(authority: authority), commissionable: nil, fabrics: [fabric], random: SystemRandom(),
            groupMessageCounter: groupMessageCounter)
        return NodeDataModel(
            node: state,
            root: Endpoint(
                id: 0, deviceTypes: [MatterDeviceTypes.rootNode],
                clusters: [AccessControlServer(), BasicInformationServer(), OTAProviderServer(provider: provider)]))
    }

    /// Matter Core §11.1: who the hub says it is. Its serial number and unique ID are its node ID on its fabric, which
    /// no other node of the fabric has.
    static func identity(authority: FabricAuthority) -> NodeIdentity {
        let digits = String(authority.hubNodeID, radix: 16, uppercase: true)
        let nodeID = String(repeating: "0", count: 16 - digits.count) + digits
        return NodeIdentity(
            vendorID: FabricAuthority.adminVendorID, productID: HubConstants.hubProductID, vendorName: "swift-home",
            productName: HubConstants.hubProductName, serialNumber: nodeID, uniqueID: nodeID)
    }
}
