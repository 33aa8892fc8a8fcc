import MatterTLV

// Matter Application Cluster spec §11.1 Basic Information (0x0028); attribute IDs as in controller-clusters.matter.
public enum BasicInformation {
    public static let clusterID: UInt32 = 0x0028

    public static let vendorName = attribute(String.self, 1, "VendorName")
    public static let vendorID = attribute(UInt16.self, 2, "VendorID")
    public static let productName = attribute(String.self, 3, "ProductName")
    public static let productID = attribute(UInt16.self, 4, "ProductID")
    public static let nodeLabel = attribute(String.self, 5, "NodeLabel")
    public static let hardwareVersion = attribute(UInt16.self, 7, "HardwareVersion")
    public static let hardwareVersionString = attribute(String.self, 8, "HardwareVersionString")
    public static let softwareVersion = attribute(UInt32.self, 9, "SoftwareVersion")
    public static let softwareVersionString = attribute(String.self, 10, "SoftwareVersionString")
    public static let serialNumber = attribute(String.self, 15, "SerialNumber")
    public static let uniqueID = attribute(String.self, 18, "UniqueID")

    private static func attribute<Value>(_ type: Value.Type, _ id: UInt32, _ name: String) -> ClusterAttribute<Value> {
        ClusterAttribute(clusterID: clusterID, attributeID: id, name: "BasicInformation.\(name)")
    }
}
