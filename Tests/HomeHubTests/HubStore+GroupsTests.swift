import Foundation
import HomeRecords
import MatterCrypto
import MatterPlatform
import Testing

@testable import HomeHub

/// The home's Matter groups in the store: one key set made once and kept, each room's group ID given once and never
/// again, and what each node was last given.
@Suite struct HubStoreGroupsTests {
    @Test func theHomesKeySetIsMadeOnceAndKept() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let first = try await store.homeGroupKeySet()
            #expect(first.id == HubStore.homeKeySetID && first.policy == .trustFirst)
            #expect(first.epochKeys.count == 1 && first.epochKeys[0].key.count == 16)
            // Its start is now, in microseconds since 2000-01-01.
            let now = HubStore.matterEpochMicroseconds(Date())
            #expect(first.epochKeys[0].startTime <= now && now - first.epochKeys[0].startTime < 60_000_000)
            let reopened = try await HubStore(path: base + "/hub.sqlite")
            #expect(try await reopened.homeGroupKeySet() == first)
        }
    }

    /// Rooms a store had before groups get IDs in their order; new rooms take the next ID, and a deleted room's ID is
    /// never given again (a device offline when its room went may still be in that group).
    @Test func eachRoomHasAGroupIDNeverReused() async throws {
        try await withTemporaryDirectory { base in
            let path = base + "/hub.sqlite"
            let old = try SQLiteDatabase(path: path)
            try old.transaction { transaction in
                try transaction.query("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                try transaction.query("INSERT INTO schema_version (version) VALUES (9)")
                for statement in HubSchema.migrations.prefix(9).joined() { try transaction.query(statement) }
                let structure = try transaction.query("SELECT structure_id FROM structures").first?["structure_id"]
                for (id, name, created) in [("R2", "Hall", 20), ("R1", "Attic", 10)] {
                    try transaction.query(
                        "INSERT INTO rooms (room_id, name, structure_id, created_at) VALUES (?, ?, ?, ?)",
                        [.text(id), .text(name), structure ?? .null, .integer(Int64(created))])
                }
            }
            let store = try await HubStore(path: path)
            #expect(try await store.roomGroupIDs() == ["R1": 1, "R2": 2])
            let structureID = try #require(try await store.structures().first).id
            let kitchen = try await store.createRoom(named: "Kitchen", in: structureID)
            #expect(try await store.roomGroupIDs()[kitchen.id] == 3)
            try await store.deleteRoom(kitchen.id)
            let pantry = try await store.createRoom(named: "Pantry", in: structureID)
            #expect(try await store.roomGroupIDs()[pantry.id] == 4)
        }
    }

    /// A room made while adding a device takes a group ID too, and one a build before left without gets one when
    /// the groups are read.
    @Test func aRoomMadeWhileAddingADeviceHasAGroupID() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0xFFF1, productID: 0x8000,
                attestation: NodeRecord.Attestation(verdict: "test", trusted: true))
            try await store.setEndpoints([EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3)], of: 0x42)
            try await store.markCommissioned(0x42)
            _ = try await store.addDevices(of: 0x42, named: "Lamp", inRoom: "Porch")
            let porch = try #require(try await store.rooms().first { $0.name == "Porch" })
            let other = try SQLiteDatabase(path: base + "/hub.sqlite")
            try other.transaction { transaction in
                try transaction.query(
                    "INSERT INTO rooms (room_id, name, structure_id, created_at) VALUES ('R9', 'Old', ?, 0)",
                    [.text(porch.structureID)])
            }
            let groups = try await store.roomGroupIDs()
            #expect(groups[porch.id] != nil && groups["R9"] != nil && groups[porch.id] != groups["R9"])
        }
    }

    /// The hub's group message counter resumes where it was stored.
    @Test func theHubsGroupCounterIsKept() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            #expect(try await store.groupMessageCounter() == nil)
            try await store.setGroupMessageCounter(0x1234_5678)
            #expect(try await HubStore(path: base + "/hub.sqlite").groupMessageCounter() == 0x1234_5678)
        }
    }

    @Test func whatANodeWasGivenIsKeptUntilReplaced() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0xFFF1, productID: 0x8000,
                attestation: NodeRecord.Attestation(verdict: "test", trusted: true))
            #expect(try await store.groupsGiven(to: 0x42) == nil)
            try await store.setGroupsGiven("k1@5|1=3", to: 0x42)
            #expect(try await store.groupsGiven(to: 0x42) == "k1@5|1=3")
            try await store.setGroupsGiven(nil, to: 0x42)
            #expect(try await store.groupsGiven(to: 0x42) == nil)
        }
    }
}

/// Named groups: IDs from the rooms' counter, names unique whatever their case, members only devices the home has.
@Suite struct HubStoreNamedGroupsTests {
    @Test func aGroupTakesTheNextIDItsNameAndItsDevices() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            let structureID = try #require(try await store.structures().first).id
            let hall = try await store.createRoom(named: "Hall", in: structureID)
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0xFFF1, productID: 0x8000,
                attestation: NodeRecord.Attestation(verdict: "test", trusted: true))
            try await store.setEndpoints(
                [
                    EndpointDeviceType(endpoint: 1, deviceType: 0x0100, revision: 3),
                    EndpointDeviceType(endpoint: 2, deviceType: 0x0100, revision: 3),
                ], of: 0x42)
            try await store.markCommissioned(0x42)
            let devices = try await store.addDevices(of: 0x42, named: "Lamp", inRoom: nil)
            let group = try await store.createGroup(named: "Corner", in: structureID, members: [devices[1]])
            #expect(group.id == (try await store.roomGroupIDs()[hall.id] ?? 0) + 1)
            #expect(try await store.groups() == [group])
            await #expect(throws: HubStoreError.groupExists("corner")) {
                try await store.createGroup(named: "corner", in: structureID, members: [])
            }
            let stranger = DeviceID(nodeID: 0x99, endpoint: 1)
            await #expect(throws: HubStoreError.unknownDevice(stranger)) {
                try await store.changeGroup(group.id, adding: [stranger], removing: [])
            }
            try await store.changeGroup(group.id, adding: [devices[0]], removing: [devices[1]])
            #expect(try await store.groups().first?.members == [devices[0]])
            // A device that leaves the home leaves its groups.
            try await store.deleteNode(0x42)
            #expect(try await store.groups().first?.members == [])
            try await store.deleteGroup(group.id)
            #expect(try await store.groups().isEmpty)
            await #expect(throws: HubStoreError.unknownGroup(group.id)) { try await store.deleteGroup(group.id) }
            // Its ID is never given again.
            let next = try await store.createRoom(named: "Attic", in: structureID)
            #expect(try await store.roomGroupIDs()[next.id] == group.id + 1)
        }
    }
}
