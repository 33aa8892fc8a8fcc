import HomeAPI

/// Read a trait's connectivity and locality beside its device type's and its device's.
enum TraitConnectivity {
    static func run(_ home: Home, device name: String) async throws(HomeError) {
        let device = try await DeviceLookup.device(name, in: home)
        guard let light = await device.types.get(OnOffLightDeviceType.self), let onOff = light.matterTraits.onOffTrait
        else {
            print("\(device.name) has no On/Off Light type")
            return
        }
        print(
            "device \(describe(device.sourceConnectivity)); type \(describe(light.metadata.sourceConnectivity)); "
                + "OnOff trait \(describe(onOff.metadata.sourceConnectivity))")
    }

    private static func describe(_ connectivity: SourceConnectivity) -> String {
        "\(connectivity.connectivityState), from \(connectivity.dataSourceLocality)"
    }
}
