import HomeAPI

/// List the lights across the four light device types, and the devices that have Level Control.
enum ListLights {
    static func run(_ home: Home) async throws(HomeError) {
        for device in try await home.devices().list().sorted(by: { $0.name < $1.name }) {
            var kinds: [String] = []
            if device.types.contains(OnOffLightDeviceType.self) { kinds.append("On/Off Light") }
            if device.types.contains(DimmableLightDeviceType.self) { kinds.append("Dimmable Light") }
            if device.types.contains(ColorTemperatureLightDeviceType.self) { kinds.append("Color Temperature Light") }
            if device.types.contains(ExtendedColorLightDeviceType.self) { kinds.append("Extended Color Light") }
            guard !kinds.isEmpty else { continue }
            var line = "\(device.name): \(kinds.joined(separator: ", "))"
            for try await types in device.types.subscribeAll() {
                let dimmable =
                    types[DimmableLightDeviceType.self]?.traits[LevelControlTrait.self] != nil
                    || types[ColorTemperatureLightDeviceType.self]?.traits[LevelControlTrait.self] != nil
                    || types[ExtendedColorLightDeviceType.self]?.traits[LevelControlTrait.self] != nil
                if dimmable { line += " — has Level Control" }
                break
            }
            print(line)
        }
    }
}
