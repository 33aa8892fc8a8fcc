import MatterDataModel
import MatterMessaging

// Matter Core §9.2 Endpoint composition: one endpoint, the device types it implements and its cluster servers
// (Descriptor is added by `NodeDataModel`, which knows the whole node).
public struct Endpoint: Sendable {
    public var id: UInt16
    public var deviceTypes: [DeviceTypeDefinition]
    public var clusters: [any ClusterServer]
    /// The endpoints this one is made of (an aggregator's bridged endpoints), for its Descriptor PartsList.
    public var parts: [UInt16]
    /// Its semantic tags, for its Descriptor TagList: what tells it from sibling endpoints of the same device type.
    public var tags: [SemanticTagStruct]

    public init(
        id: UInt16, deviceTypes: [DeviceTypeDefinition], clusters: [any ClusterServer], parts: [UInt16] = [],
        tags: [SemanticTagStruct] = []
    ) {
        self.id = id
        self.deviceTypes = deviceTypes
        self.clusters = clusters
        self.parts = parts
        self.tags = tags
    }

    /// Endpoint 0: the root node's commissioning, access control and information clusters.
    public static func rootNode(
        interfaces: [HostNetworkInterface], rebootCount: UInt16, bootTime: MatterMessaging.Instant
    ) -> Endpoint {
        Endpoint(
            id: 0, deviceTypes: [MatterDeviceTypes.rootNode],
            clusters: [
                AccessControlServer(), BasicInformationServer(), GeneralCommissioningServer(),
                GeneralDiagnosticsServer(interfaces: interfaces, rebootCount: rebootCount, bootTime: bootTime),
                AdministratorCommissioningServer(), OperationalCredentialsServer(), GroupKeyManagementServer(),
            ])
    }

    /// An Aggregator (Matter Core §9.12 Bridge): its parts are a bridge's bridged devices.
    package var isAggregator: Bool { deviceTypes.contains { $0.id == MatterDeviceTypes.aggregator.id } }

    /// A bridged device: it carries the Bridged Node device type (Matter Core §9.12 Bridge).
    package var isBridgedDevice: Bool { deviceTypes.contains { $0.id == MatterDeviceTypes.bridgedNode.id } }
}
