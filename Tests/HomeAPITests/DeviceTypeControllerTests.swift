import HomeHub
import MatterDataModel
import Testing
@testable import HomeAPI

@Suite struct DeviceTypeControllerTests {
    @Test func containsAndGetFollowTheStoredDeviceTypes() async throws {
        try await withHome { home, store, _ in
            try addNode(store, 0x11, endpoints: [(1, 0x0101)], named: "Spot")
            let spot = try #require(try await home.devices().list().first)
            #expect(spot.types.contains(DimmableLightDeviceType.self))
            #expect(!spot.types.contains(OnOffLightDeviceType.self))
            let light = try #require(try await spot.types.get(DimmableLightDeviceType.self))
            // The test node has no address: following it live fails at once, and its types report it offline.
            #expect(light.metadata == DeviceTypeMetadata(deviceTypeID: 0x0101, endpoint: 1, revision: 3, isPrimaryType: true,
                                                         sourceConnectivity: SourceConnectivity(connectivityState: .offline, dataSourceLocality: .direct)))
            #expect(light.matterTraits.onOffTrait == nil)
            #expect(try await spot.types.get(ContactSensorDeviceType.self) == nil)
        }
    }

    @Test func subscribeToAMissingTypeFinishesWithoutEmitting() async throws {
        try await withHome { home, store, _ in
            try addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let missing = Recorder { record in for try await value in lamp.types.subscribe(ContactSensorDeviceType.self) { record(value) } }
            await missing.waitUntilFinished()
            #expect(missing.finished && missing.values.isEmpty && missing.error == nil)
        }
    }

    @Test func subscribeEmitsTheTypeAndFinishesWhenTheDeviceLosesIt() async throws {
        try await withHome { home, store, _ in
            try addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let light = Recorder { record in for try await value in lamp.types.subscribe(OnOffLightDeviceType.self) { record(value) } }
            #expect(await light.values(count: 1).map(\.metadata.revision) == [3])
            // A new revision on the endpoint is a change to the device type.
            try store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 4)], of: 0x11)
            #expect(await light.values(count: 2).map(\.metadata.revision) == [3, 4])
            try store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0015, revision: 1)], of: 0x11)
            await light.waitUntilFinished()
            #expect(light.finished && light.values.count == 2)
            await home.disconnect()
        }
    }

    @Test func subscribeAllEmitsEveryTypeSubscriptableByType() async throws {
        try await withHome { home, store, _ in
            try addNode(store, 0x11, endpoints: [(1, 0x0100), (2, 0x0015)], named: "Combo")
            let combo = try #require(try await home.devices(enableMultipartDevices: true).list().first)
            let all = Recorder { record in for try await value in combo.types.subscribeAll() { record(value) } }
            let first = try #require(await all.values(count: 1).first)
            #expect(first.deviceTypeIDs == [0x0100, 0x0015])
            #expect(first[OnOffLightDeviceType.self]?.metadata.endpoint == 1)
            #expect(first[ContactSensorDeviceType.self]?.metadata.endpoint == 2)
            #expect(first[DimmableLightDeviceType.self] == nil)
            all.cancel()
            await home.disconnect()
        }
    }
}
