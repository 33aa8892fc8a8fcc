import MatterDataModel

/// A Matter device type a device may have (On/Off Light, Contact Sensor…). Kept minimal for now: the generated device
/// types, with their traits, will conform to it; a type is known by its Matter device type ID.
public protocol DeviceType: Sendable, Hashable {
    /// Matter Device Library: the device type's ID (On/Off Light is 0x0100).
    static var matterDeviceTypeID: DeviceTypeID { get }
    /// Where this instance of the type lives on the device.
    var metadata: DeviceTypeMetadata { get }
    init(metadata: DeviceTypeMetadata)
}

/// What the hub knows of one device type on one endpoint.
public struct DeviceTypeMetadata: Sendable, Hashable {
    public let deviceTypeID: DeviceTypeID
    // Matter Core §9.5.5.1 Descriptor DeviceTypeStruct: the endpoint and the revision the device declares.
    public let endpoint: UInt16
    public let revision: UInt16
    /// `.unknown` until the hub follows devices live.
    public let sourceConnectivity: SourceConnectivity

    public init(deviceTypeID: DeviceTypeID, endpoint: UInt16, revision: UInt16, sourceConnectivity: SourceConnectivity) {
        self.deviceTypeID = deviceTypeID
        self.endpoint = endpoint
        self.revision = revision
        self.sourceConnectivity = sourceConnectivity
    }
}
