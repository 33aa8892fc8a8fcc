import HomeHub
import MatterDataModel
import Testing
@testable import HomeAPI

@Suite struct DeviceTypeControllerTests {
    @Test func containsAndGetFollowTheStoredDeviceTypes() async throws {
        try await withHome { home, store, _ in
            try addNode(store, 0x11, endpoints: [(1, 0x0101)], named: "Spot")
            let spot = try #require(try await home.devices().list().first)
            #expect(spot.types.contains(DimmableLight.self))
            #expect(!spot.types.contains(OnOffLight.self))
            let light = try #require(try await spot.types.get(DimmableLight.self))
            #expect(light.metadata == DeviceTypeMetadata(deviceTypeID: 0x0101, endpoint: 1, revision: 3, sourceConnectivity: .unknown))
            #expect(try await spot.types.get(ContactSensor.self) == nil)
        }
    }

    @Test func subscribeToAMissingTypeFinishesWithoutEmitting() async throws {
        try await withHome { home, store, _ in
            try addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let missing = Recorder { record in for try await value in lamp.types.subscribe(ContactSensor.self) { record(value) } }
            await missing.waitUntilFinished()
            #expect(missing.finished && missing.values.isEmpty && missing.error == nil)
        }
    }

    @Test func subscribeEmitsTheTypeAndFinishesWhenTheDeviceLosesIt() async throws {
        try await withHome { home, store, _ in
            try addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let light = Recorder { record in for try await value in lamp.types.subscribe(OnOffLight.self) { record(value) } }
            #expect(await light.values(count: 1).map(\.metadata.revision) == [3])
            // A new revision on the endpoint is a change to the device type.
            try store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 4)], of: 0x11)
            #expect(await light.values(count: 2).map(\.metadata.revision) == [3, 4])
            try store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0015, revision: 1)], of: 0x11)
            await light.waitUntilFinished()
            #expect(light.finished && light.values.count == 2)
        }
    }

    @Test func subscribeAllSaysItIsNotBuilt() async throws {
        try await withHome { home, store, _ in
            try addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let all = Recorder { record in for try await value in lamp.types.subscribeAll() { record(value) } }
            await all.waitUntilFinished()
            #expect(all.error?.code == .unimplemented)
        }
    }
}
