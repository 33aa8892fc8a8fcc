// Matter Core §11.1 Basic Information: who the device says it is, fixed for its lifetime.
public struct NodeIdentity: Hashable, Sendable, Codable {
    public var vendorID: UInt16
    public var productID: UInt16
    public var vendorName: String
    public var productName: String
    public var serialNumber: String
    /// §11.1.5.19 UniqueID: a random identifier that survives factory resets of the label, not of the device.
    public var uniqueID: String
    public var hardwareVersion: UInt16
    public var softwareVersion: UInt32
    public var softwareVersionString: String

    public init(
        vendorID: UInt16, productID: UInt16, vendorName: String = "swift-home", productName: String,
        serialNumber: String, uniqueID: String, hardwareVersion: UInt16 = 1, softwareVersion: UInt32 = 1,
        softwareVersionString: String = "1.0"
    ) {
        self.vendorID = vendorID
        self.productID = productID
        self.vendorName = vendorName
        self.productName = productName
        self.serialNumber = serialNumber
        self.uniqueID = uniqueID
        self.hardwareVersion = hardwareVersion
        self.softwareVersion = softwareVersion
        self.softwareVersionString = softwareVersionString
    }
}
