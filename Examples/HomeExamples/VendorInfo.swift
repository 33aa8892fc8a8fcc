import HomeAPI

/// Read the vendor name, vendor ID and product ID from the node's Basic Information (its Root Node type).
enum VendorInfo {
    static func run(_ home: Home, device name: String) async throws(HomeError) {
        let device = try await DeviceLookup.device(name, in: home)
        guard let basic = await device.types.get(RootNodeDeviceType.self)?.matterTraits.basicInformationTrait else {
            print("\(device.name): its node does not describe itself (no Root Node type)")
            return
        }
        let attributes = basic.attributes
        print(
            "\(device.name): \(attributes.vendorName ?? "?") (vendor \(attributes.vendorID.map { "\($0)" } ?? "?")), "
                + "product \(attributes.productID.map(String.init) ?? "?")")
    }
}
