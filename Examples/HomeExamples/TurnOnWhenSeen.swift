import HomeAPI

/// Subscribe to a device's On/Off Light type and turn the light on when the first update arrives.
enum TurnOnWhenSeen {
    static func run(_ home: Home, device name: String) async throws(HomeError) {
        let device = try await DeviceLookup.device(name, in: home)
        // `subscribe` finishes at once, without a value, when the device is not an On/Off Light.
        for try await light in device.types.subscribe(OnOffLightDeviceType.self) {
            guard let onOff = light.matterTraits.onOffTrait else { break }
            try await onOff.on()
            print("\(device.name): turned on (it was \(onOff.attributes.onOff.map { $0 ? "on" : "off" } ?? "unknown"))")
            return
        }
        print("\(device.name) is not an On/Off Light")
    }
}
