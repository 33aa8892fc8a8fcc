import HomeAPI

/// Read device connectivity and locality: whether each device can be reached, and where its data comes from.
/// The Home API reports `unknown` / `unspecified` until the hub follows devices live (`home devices --live` and
/// `home show` check nodes from the command line meanwhile).
enum DeviceConnectivity {
    static func run(_ home: Home) async throws(HomeError) {
        for device in try await home.devices().list().sorted(by: { $0.name < $1.name }) {
            let connectivity = device.sourceConnectivity
            print("\(device.name): \(connectivity.connectivityState), data from \(connectivity.dataSourceLocality)")
        }
    }
}
