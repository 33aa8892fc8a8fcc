import HomeAPI

/// The Home APIs' iOS documentation snippets as it writes them (with Combine's `.sink` turned into `for try await`).
/// Compiled, not run: a spelling the documentation uses that HomeAPI lacks fails the build of this target.
enum DocumentationSnippets {
    static func deviceTypes(of device: HomeDevice) async -> [Bool] {
        let _ = await device.types.get(OnOffLightDeviceType.self)
        if let light = await device.types.get(DimmableLightDeviceType.self) {
            return [light.traits.contains(Matter.LevelControlTrait.self), light.traits[Matter.OnOffTrait.self] != nil]
        }
        guard let sensor = await device.types.get(TemperatureSensorDeviceType.self) else { return [] }
        return [sensor.traits.contains(Matter.TemperatureMeasurementTrait.self)]
    }

    static func filterLights(_ devices: [HomeDevice]) async -> [HomeDevice] {
        var lights: [HomeDevice] = []
        for device in devices where await device.types.get(OnOffLightDeviceType.self) != nil {
            lights.append(device)
        }
        return lights
    }

    static func configure(
        _ commissioner: HomeMatterCommissioner, name: String, room: MatterAddDeviceRequest.Room?
    ) async {
        await commissioner.configureMatterDevice(deviceName: name, roomName: room?.displayName)
    }
}
