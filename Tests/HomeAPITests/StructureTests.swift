import HomeHub
import HomeRecords
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct StructureTests {
    @Test func theHomeHasOneDefaultStructureNamedHome() async throws {
        try await withHome { home, store, _ in
            let structures = try await home.structures().list()
            #expect(structures.map(\.name) == ["Home"])
            #expect(try await store.structures().map(\.id) == structures.map(\.id))
        }
    }

    @Test func setNameRenamesTheStructure() async throws {
        try await withHome { home, store, _ in
            let structure = try #require(try await home.structures().list().first)
            let renamed = try await structure.setName("Beach house")
            #expect(structure.name == "Home" && renamed.name == "Beach house" && renamed.id == structure.id)
            #expect(try await store.structures().map(\.name) == ["Beach house"])
            let room = try await home.createRoom(name: "Porch", in: renamed)
            #expect(room.structureID == structure.id)
        }
    }

    @Test func roomsTheCommissionerCreatesJoinTheDefaultStructure() async throws {
        try await withHome { home, store, _ in
            // The commissioner's `--room` creates rooms through the store directly.
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp", room: "Garage")
            let structure = try #require(try await home.structures().list().first)
            #expect(try await home.rooms().list().map(\.structureID) == [structure.id])
        }
    }
}
