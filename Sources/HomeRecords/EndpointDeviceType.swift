// Matter Core §9.5.5.1 Descriptor DeviceTypeStruct, per endpoint.
public struct EndpointDeviceType: Sendable, Hashable, Codable {
    public var endpoint: UInt16
    public var deviceType: UInt32
    public var revision: UInt16

    public init(endpoint: UInt16, deviceType: UInt32, revision: UInt16) {
        self.endpoint = endpoint
        self.deviceType = deviceType
        self.revision = revision
    }
}
