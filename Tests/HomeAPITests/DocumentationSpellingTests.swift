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

    /// The add-device flow's app side: prepare, perform, then complete, or cancel on error; complete and cancel are
    /// written without `await`.
    static func addDevice(to structure: Structure) async -> Set<String> {
        do {
            try await structure.prepareForMatterCommissioning()
        } catch {
            return []
        }
        let topology = MatterAddDeviceRequest.Topology(
            ecosystemName: "Google Home",
            homes: [MatterAddDeviceRequest.Home(displayName: structure.name)]
        )
        let request = MatterAddDeviceRequest(topology: topology)
        do {
            try await request.perform()
            let commissionedDeviceIDs = try structure.completeMatterCommissioning()
            return commissionedDeviceIDs
        } catch let error {
            structure.cancelMatterCommissioning()
            _ = error
            return []
        }
    }

    /// The add-device extension's handler calls: each makes its commissioner from the app group, without `await`,
    /// and lists the rooms without `await`.
    static func rooms(appGroup: String) -> [MatterAddDeviceRequest.Room] {
        do {
            let homeMatterCommissioner = try HomeMatterCommissioner(appGroup: appGroup)
            let fetchedRooms = try homeMatterCommissioner.fetchRooms()
            return fetchedRooms
        } catch {
            return []
        }
    }

    static func commission(appGroup: String, onboardingPayload: String) async throws {
        let homeMatterCommissioner = try HomeMatterCommissioner(appGroup: appGroup)
        try await homeMatterCommissioner.commissionMatterDevice(onboardingPayload: onboardingPayload)
    }
}
