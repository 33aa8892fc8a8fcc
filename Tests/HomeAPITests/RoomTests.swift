import HomeHub
import HomeRecords
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct RoomTests {
    @Test func roomsAreCreatedRenamedAndDeletedInTheStore() async throws {
        try await withHome { home, store, _ in
            let kitchen = try await home.createRoom(name: "Kitchen")
            let structure = try #require(try await home.structures().list().first)
            #expect(kitchen.name == "Kitchen" && kitchen.structureID == structure.id)
            #expect(try await home.rooms().list() == [kitchen])

            let renamed = try await kitchen.setName("Cuisine")
            #expect(kitchen.name == "Kitchen" && renamed.name == "Cuisine" && renamed.id == kitchen.id)
            #expect(try await store.rooms().map(\.name) == ["Cuisine"])

            try await home.deleteRoom(renamed)
            #expect(try await home.rooms().list().isEmpty)
            await #expect(throws: HomeError(.notFound, "no room \(kitchen.id) in the store")) {
                try await home.deleteRoom(kitchen)
            }
        }
    }

    @Test func aRoomNameIsUniqueWhateverItsCase() async throws {
        try await withHome { home, _, _ in
            let kitchen = try await home.createRoom(name: "Kitchen")
            let hall = try await home.createRoom(name: "Hall")
            await #expect(throws: HomeError(.alreadyExists, "a room named \"kitchen\" already exists")) {
                try await home.createRoom(name: "kitchen")
            }
            await #expect(throws: HomeError(.alreadyExists, "a room named \"KITCHEN\" already exists")) {
                try await hall.setName("KITCHEN")
            }
            // A room may change the case of its own name.
            #expect(try await kitchen.setName("KITCHEN").name == "KITCHEN")
        }
    }

    @Test func roomNamesFollowTheDeviceNameRules() async throws {
        try await withHome { home, _, _ in
            await #expect {
                try await home.createRoom(name: "  ")
            } throws: { error in
                (error as? HomeError)?.code == .invalidArgument
            }
            let long = try await home.createRoom(name: String(repeating: "\u{1F6CB}", count: 70))
            #expect(long.name.unicodeScalars.count == 60)
        }
    }

    @Test func devicesOfADeletedRoomStayInNoRoom() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            let lamp = try #require(try await home.devices().list().first)
            let den = try await home.createRoom(name: "Den")
            let moved = try await home.move(device: lamp, to: den)
            #expect(moved.roomID == den.id && lamp.roomID == nil)
            #expect(try await home.devices().list() == [moved])
            try await home.deleteRoom(den)
            #expect(try await home.devices().list().first?.roomID == nil)
            #expect(try await home.devices().list().count == 1)
            await #expect(throws: HomeError(.notFound, "no room \(den.id) in the store")) {
                try await home.move(device: lamp, to: den)
            }
        }
    }
}
