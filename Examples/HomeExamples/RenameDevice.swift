import HomeAPI

/// Rename a device. `setName` returns the device renamed (the value it was called on stays as it was); names longer
/// than 60 Unicode code points are cut, a blank one is an `invalidArgument` error.
enum RenameDevice {
    static func run(_ home: Home, device text: String, name: String) async throws(HomeError) {
        let device = try await DeviceLookup.device(text, in: home)
        let renamed = try await device.setName(name)
        print("\(device.name) is now \(renamed.name)")
    }
}
