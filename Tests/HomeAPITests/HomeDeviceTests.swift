import HomeHub
import HomeRecords
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct HomeDeviceTests {
    @Test func setNameReturnsTheRenamedDeviceAndLeavesTheOriginalAsItWas() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let renamed = try await lamp.setName("Desk lamp")
            #expect(lamp.name == "Lamp")
            #expect(renamed.name == "Desk lamp")
            #expect(renamed.id == lamp.id && renamed != lamp)
            #expect(try await home.devices().list() == [renamed])
            #expect(try await store.devices().map(\.name) == ["Desk lamp"])
        }
    }

    @Test func setNameStoresSixtyCodePointsOfALongerName() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            // 59 letters + e + COMBINING ACUTE ACCENT: 61 code points, 60 grapheme clusters.
            let renamed = try await lamp.setName(String(repeating: "x", count: 59) + "e\u{301}")
            #expect(renamed.name == String(repeating: "x", count: 59) + "e")
            #expect(try await store.devices().first?.name == renamed.name)
        }
    }

    @Test func aBlankNameIsRefusedAndChangesNothing() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            await #expect {
                try await lamp.setName(" \t ")
            } throws: { error in
                (error as? HomeError)?.code == .invalidArgument
            }
            #expect(try await store.devices().first?.name == "Lamp")
        }
    }

    @Test func devicesCarryTheirRoomStructureAndUnknownConnectivity() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp", room: "Kitchen")
            try await addNode(store, 0x22, endpoints: [(1, 0x0015)], named: "Door")
            let devices = try await home.devices().list()
            let structure = try #require(try await home.structures().list().first)
            let kitchen = try #require(try await home.rooms().list().first)
            let lamp = try #require(devices.first { $0.name == "Lamp" })
            let door = try #require(devices.first { $0.name == "Door" })
            #expect(lamp.roomID == kitchen.id && door.roomID == nil)
            #expect(lamp.structureID == structure.id && door.structureID == structure.id)
            #expect(devices.allSatisfy { $0.isMatterDevice && $0.sourceConnectivity == .unknown })
        }
    }

    @Test func multipartDevicesAreWholeNodesWithTheirPartsInTypes() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100), (2, 0x0100), (3, 0x0015)], named: "Strip")
            try await addNode(store, 0x22, endpoints: [(1, 0x0101)], named: "Spot")
            let endpoints = try await home.devices().list()
            #expect(Set(endpoints.map(\.name)) == ["Strip 1", "Strip 2", "Strip 3", "Spot"])

            let nodes = try await home.devices(enableMultipartDevices: true).list()
            #expect(Set(nodes.map(\.id)) == ["0000000000000011", "0000000000000022"])
            let strip = try #require(nodes.first { $0.id == "0000000000000011" })
            // No node name yet: the product name, else the first part's name.
            #expect(strip.name == "Strip 1")
            let lights = try await strip.types.getAll(of: OnOffLightDeviceType.self)
            #expect(lights.map(\.metadata.endpoint) == [1, 2])
            #expect(try await strip.types.getAll(of: ContactSensorDeviceType.self).map(\.metadata.endpoint) == [3])
            #expect(try await strip.types.getAll(of: DimmableLightDeviceType.self).isEmpty)

            // getAll followed the node live: it is offline now (it has no address), so the device is read again.
            let followed = try #require(
                try await home.devices(enableMultipartDevices: true).list().first { $0.id == strip.id })
            #expect(followed.sourceConnectivity.connectivityState == .offline)
            let renamed = try await followed.setName("Light strip")
            #expect(try await home.devices(enableMultipartDevices: true).list().first { $0.id == strip.id } == renamed)
            // The parts keep their own names.
            #expect(Set(try await home.devices().list().map(\.name)) == ["Strip 1", "Strip 2", "Strip 3", "Spot"])

            let hall = try await home.createRoom(name: "Hall")
            let moved = try await home.move(device: renamed, to: hall)
            #expect(moved.roomID == hall.id && renamed.roomID == nil)
            let parts = try await home.devices().list().filter { $0.id.hasPrefix("0000000000000011-") }
            #expect(parts.count == 3 && parts.allSatisfy { $0.roomID == hall.id })
        }
    }

    @Test func renamingADeviceThatIsGoneIsNotFound() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            try await store.deleteNode(0x11)
            await #expect(throws: HomeError(.notFound, "no device 0000000000000011-1 in the store")) {
                try await lamp.setName("Gone")
            }
        }
    }
}
