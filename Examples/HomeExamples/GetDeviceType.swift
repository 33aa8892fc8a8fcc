import HomeAPI

/// Get a device type with `get` and handle the device not having it.
enum GetDeviceType {
    static func run(_ home: Home, device name: String) async throws(HomeError) {
        let device = try await DeviceLookup.device(name, in: home)
        guard let dimmable = await device.types.get(DimmableLightDeviceType.self) else {
            print("\(device.name) is not a Dimmable Light")
            return
        }
        let level = dimmable.matterTraits.levelControlTrait?.attributes.currentLevel
        print("\(device.name): level \(level.flatMap(\.optional).map(String.init) ?? "unknown")")
    }
}
