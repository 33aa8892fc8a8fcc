import HomeRecords
import MatterPlatform
import Testing

@testable import HomeHub

@Suite struct HubStoreStructuresTests {
    @Test func migratingAVersionTwoStorePutsItsRoomsInTheNewDefaultStructure() async throws {
        try await withTemporaryDirectory { base in
            let path = base + "/hub.sqlite"
            let old = try SQLiteDatabase(path: path)
            try old.transaction { transaction in
                try transaction.query("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                try transaction.query("INSERT INTO schema_version (version) VALUES (2)")
                for statement in HubSchema.migrations[0] + HubSchema.migrations[1] { try transaction.query(statement) }
                try transaction.query("INSERT INTO rooms (room_id, name, created_at) VALUES ('R1', 'Attic', 0)")
            }
            let store = try await HubStore(path: path)
            let structures = try await store.structures()
            #expect(structures.map(\.name) == ["Home"])
            #expect(try await store.rooms() == [RoomRecord(id: "R1", name: "Attic", structureID: structures[0].id)])
        }
    }

    @Test func everyChangeToWhatTheHomeShowsMovesTheCounter() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let other = try await HubStore(path: base + "/hub.sqlite")
            var last = try await other.changeCounter()
            func expectMoved() async throws {
                let now = try await other.changeCounter()
                #expect(now > last)
                last = now
            }
            let structureID = try #require(try await store.structures().first).id
            let room = try await store.createRoom(named: "Hall", in: structureID)
            try await expectMoved()
            try await store.renameRoom(room.id, to: "Lobby")
            try await expectMoved()
            try await store.beginCommissioning(
                nodeID: 0x11, vendorID: 0xFFF1, productID: 0x8000,
                attestation: NodeRecord.Attestation(verdict: "test", trusted: true))
            try await store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3)], of: 0x11)
            try await store.markCommissioned(0x11)
            try await store.addDevices(of: 0x11, named: "Lamp", inRoom: nil)
            try await expectMoved()
            try await store.renameDevice(DeviceID(nodeID: 0x11, endpoint: 1), to: "Desk lamp")
            try await expectMoved()
            try await store.moveDevices([DeviceID(nodeID: 0x11, endpoint: 1)], toRoom: room.id)
            try await expectMoved()
            try await store.renameStructure(structureID, to: "Flat")
            try await expectMoved()
            try await store.deleteRoom(room.id)
            try await expectMoved()
            #expect(try await store.devices().map(\.roomID) == [nil])
            // A refused write leaves the counter as it was.
            await #expect(throws: HubStoreError.unknownRoom("nowhere")) { try await store.deleteRoom("nowhere") }
            #expect(try await other.changeCounter() == last)
        }
    }
    @Test func aRoomNameDifferingOnlyInCaseInAnyScriptIsTheSameRoom() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first).id
            let kitchen = try await store.createRoom(named: "Küche", in: structureID)
            // SQLite's NOCASE folds ASCII only: "KÜCHE" and "Küche" would be two rooms by the column's rule.
            await #expect(throws: HubStoreError.roomExists("KÜCHE")) {
                try await store.createRoom(named: "KÜCHE", in: structureID)
            }
            let hall = try await store.createRoom(named: "Hall", in: structureID)
            await #expect(throws: HubStoreError.roomExists("küche")) {
                try await store.renameRoom(hall.id, to: "küche")
            }
            // A room may take another case of its own name.
            try await store.renameRoom(kitchen.id, to: "KÜCHE")
            #expect(try await store.rooms().map(\.name).sorted() == ["Hall", "KÜCHE"])
            // A device added "in küche" lands in that room rather than a new one.
            try await store.beginCommissioning(
                nodeID: 0x11, vendorID: 0xFFF1, productID: 0x8000,
                attestation: NodeRecord.Attestation(verdict: "test", trusted: true))
            try await store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3)], of: 0x11)
            try await store.markCommissioned(0x11)
            try await store.addDevices(of: 0x11, named: "Lamp", inRoom: "küche")
            #expect(try await store.devices().map(\.roomID) == [kitchen.id])
            #expect(try await store.rooms().count == 2)
        }
    }
}
