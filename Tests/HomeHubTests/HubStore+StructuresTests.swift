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
            let store = try HubStore(path: path)
            let structures = try store.structures()
            #expect(structures.map(\.name) == ["Home"])
            #expect(try store.rooms() == [RoomRecord(id: "R1", name: "Attic", structureID: structures[0].id)])
        }
    }

    @Test func everyChangeToWhatTheHomeShowsMovesTheCounter() async throws {
        try await withTemporaryDirectory { base in
            let store = try HubStore(path: base + "/hub.sqlite")
            let other = try HubStore(path: base + "/hub.sqlite")
            var last = try other.changeCounter()
            func expectMoved() throws {
                let now = try other.changeCounter()
                #expect(now > last)
                last = now
            }
            let structureID = try #require(try store.structures().first).id
            let room = try store.createRoom(named: "Hall", in: structureID)
            try expectMoved()
            try store.renameRoom(room.id, to: "Lobby")
            try expectMoved()
            try store.beginCommissioning(
                nodeID: 0x11, vendorID: 0xFFF1, productID: 0x8000,
                attestation: NodeRecord.Attestation(verdict: "test", trusted: true))
            try store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3)], of: 0x11)
            try store.markCommissioned(0x11)
            try store.addDevices(of: 0x11, named: "Lamp", inRoom: nil)
            try expectMoved()
            try store.renameDevice(DeviceID(nodeID: 0x11, endpoint: 1), to: "Desk lamp")
            try expectMoved()
            try store.moveDevices([DeviceID(nodeID: 0x11, endpoint: 1)], toRoom: room.id)
            try expectMoved()
            try store.renameStructure(structureID, to: "Flat")
            try expectMoved()
            try store.deleteRoom(room.id)
            try expectMoved()
            #expect(try store.devices().map(\.roomID) == [nil])
            // A refused write leaves the counter as it was.
            #expect(throws: HubStoreError.unknownRoom("nowhere")) { try store.deleteRoom("nowhere") }
            #expect(try other.changeCounter() == last)
        }
    }
}
