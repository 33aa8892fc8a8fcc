import MatterTLV

// Matter Core §9.5 Descriptor (0x001D); attribute IDs and tags as in controller-clusters.matter.
public enum Descriptor {
    public static let clusterID: UInt32 = 0x001D

    public static let deviceTypeList = ClusterAttribute<[DeviceTypeStruct]>(clusterID: clusterID, attributeID: 0, name: "Descriptor.DeviceTypeList")
    public static let serverList = ClusterAttribute<[UInt32]>(clusterID: clusterID, attributeID: 1, name: "Descriptor.ServerList")
    public static let clientList = ClusterAttribute<[UInt32]>(clusterID: clusterID, attributeID: 2, name: "Descriptor.ClientList")
    public static let partsList = ClusterAttribute<[UInt16]>(clusterID: clusterID, attributeID: 3, name: "Descriptor.PartsList")
}

// Matter Core §9.5.5.1 DeviceTypeStruct
public struct DeviceTypeStruct: TLVCodable, Hashable, Sendable {
    public var deviceType: UInt32
    public var revision: UInt16

    public init(deviceType: UInt32, revision: UInt16) {
        self.deviceType = deviceType
        self.revision = revision
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, deviceType)
            TLVElement.context(1, revision)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(deviceType: try fields.required(0), revision: try fields.required(1))
    }
}
