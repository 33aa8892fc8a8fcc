extension MatterDeviceTypes {
    private static let names = Dictionary(
        all.map { ($0.id.rawValue, $0.name) }, uniquingKeysWith: { first, _ in first })

    /// A device type as people read it ("On/Off Light"); one the library lacks (a vendor's) as its ID.
    public static func name(of deviceType: UInt32) -> String {
        names[deviceType] ?? DeviceTypeID(rawValue: deviceType).description
    }
}
