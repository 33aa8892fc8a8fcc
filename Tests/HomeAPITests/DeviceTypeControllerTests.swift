import HomeHub
import HomeRecords
import MatterDataModel
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct DeviceTypeControllerTests {
    @Test func containsAndGetFollowTheStoredDeviceTypes() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0101)], named: "Spot")
            let spot = try #require(try await home.devices().list().first)
            #expect(spot.types.contains(DimmableLightDeviceType.self))
            #expect(!spot.types.contains(OnOffLightDeviceType.self))
            let light = try #require(await spot.types.get(DimmableLightDeviceType.self))
            // The test node has no address: it is followed live but never online.
            #expect(
                light.metadata.deviceTypeID == 0x0101 && light.metadata.endpoint == 1 && light.metadata.revision == 3
                    && light.metadata.isPrimaryType)
            #expect(
                light.metadata.sourceConnectivity.dataSourceLocality == .direct
                    && light.metadata.sourceConnectivity.connectivityState != .online)
            #expect(light.matterTraits.onOffTrait == nil)
            #expect(await spot.types.get(ContactSensorDeviceType.self) == nil)
            // A node never heard from serves no cluster yet, whichever spelling asks.
            #expect(!light.traits.contains(Matter.OnOffTrait.self))
        }
    }

    /// `get` does not throw: a device whose state cannot be had (here, gone from the home) gives nil, where
    /// `subscribe` would end.
    @Test func getIsNilForADeviceNoLongerInTheHome() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0101)], named: "Spot")
            let spot = try #require(try await home.devices().list().first)
            try await store.deleteNode(0x11)
            #expect(await spot.types.get(DimmableLightDeviceType.self) == nil)
        }
    }

    /// Endpoints 3 and 1 both lights, tagged Right and Left: parts come in endpoint order, each with its own tags, and
    /// a multipart device whose tags change is a changed device.
    @Test func getAllGivesEachPartInEndpointOrderWithItsTags() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(3, 0x0100), (1, 0x0100), (2, 0x0302)], named: "Lamps")
            let endpoints = try await store.endpoints(of: 0x11)
            try await store.setEndpoints(
                endpoints,
                tags: [
                    EndpointSemanticTag(endpoint: 3, namespaceID: 0x08, tag: 1),
                    EndpointSemanticTag(endpoint: 1, namespaceID: 0x08, tag: 0),
                ], of: 0x11)
            let lamps = try #require(try await home.devices(enableMultipartDevices: true).list().first)
            let parts = try await lamps.types.getAll(of: OnOffLightDeviceType.self)
            #expect(parts.map(\.metadata.endpoint) == [1, 3])
            #expect(parts.map { $0.metadata.semanticTags.map(\.description) } == [["Left"], ["Right"]])
            #expect(
                try await lamps.types.getAll(of: TemperatureSensorDeviceType.self).map(\.metadata.semanticTags) == [[]])
            #expect(try await lamps.types.getAll(of: FanDeviceType.self).isEmpty)

            let batches = Recorder { record in
                for try await devices in home.devices(enableMultipartDevices: true).batched() { record(devices) }
            }
            #expect(await batches.values(count: 1).count == 1)
            try await store.setEndpoints(
                endpoints, tags: [EndpointSemanticTag(endpoint: 1, namespaceID: 0x08, tag: 4)], of: 0x11)
            let changed = await batches.values(count: 2).last?.first
            #expect(
                try await changed?.types.getAll(of: OnOffLightDeviceType.self).map {
                    $0.metadata.semanticTags.map(\.description)
                } == [["Middle"], []])
            batches.cancel()
        }
    }

    @Test func subscribeToAMissingTypeFinishesWithoutEmitting() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let missing = Recorder { record in
                for try await value in lamp.types.subscribe(ContactSensorDeviceType.self) { record(value) }
            }
            await missing.waitUntilFinished()
            #expect(missing.finished && missing.values.isEmpty && missing.error == nil)
        }
    }

    @Test func subscribeEmitsTheTypeAndFinishesWhenTheDeviceLosesIt() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let light = Recorder { record in
                for try await value in lamp.types.subscribe(OnOffLightDeviceType.self) { record(value) }
            }
            #expect(await light.values(count: 1).map(\.metadata.revision) == [3])
            // A new revision on the endpoint is a change to the device type (its connectivity may change too: the test
            // node cannot be reached).
            try await store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 4)], of: 0x11)
            await light.until { $0.last?.metadata.revision == 4 }
            #expect(light.values.last?.metadata.revision == 4)
            try await store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0015, revision: 1)], of: 0x11)
            await light.waitUntilFinished()
            #expect(light.finished && Set(light.values.map(\.metadata.revision)) == [3, 4])
            await home.disconnect()
        }
    }

    @Test func subscribeAllEmitsEveryTypeSubscriptableByType() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100), (2, 0x0015)], named: "Combo")
            let combo = try #require(try await home.devices(enableMultipartDevices: true).list().first)
            let all = Recorder { record in for try await value in combo.types.subscribeAll() { record(value) } }
            let first = try #require(await all.values(count: 1).first)
            // The device's own types, then its node's root endpoint (Root Node).
            #expect(first.deviceTypeIDs == [0x0100, 0x0015, 0x0016])
            #expect(first[OnOffLightDeviceType.self]?.metadata.endpoint == 1)
            #expect(first[ContactSensorDeviceType.self]?.metadata.endpoint == 2)
            #expect(first[DimmableLightDeviceType.self] == nil)
            all.cancel()
            await home.disconnect()
        }
    }
}
