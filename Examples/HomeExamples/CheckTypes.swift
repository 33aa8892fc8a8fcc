import HomeAPI

/// Check which types a device has with `subscribeAll`, and which of them is its primary type.
enum CheckTypes {
    static func run(_ home: Home, device name: String) async throws(HomeError) {
        let device = try await DeviceLookup.device(name, in: home)
        for try await types in device.types.subscribeAll() {
            print("\(device.name): device types \(types.deviceTypeIDs.map(\.description).joined(separator: ", "))")
            if let light = types[OnOffLightDeviceType.self] {
                print("  On/Off Light\(light.metadata.isPrimaryType ? " (primary)" : "")")
            }
            if let dimmable = types[DimmableLightDeviceType.self] {
                print("  Dimmable Light\(dimmable.metadata.isPrimaryType ? " (primary)" : "")")
            }
            return
        }
    }
}
