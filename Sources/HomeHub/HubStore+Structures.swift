import Foundation
import HomeRecords
import MatterPlatform

/// Structures and the rooms in them. Names are stored as given: the caller validates them.
extension HubStore {
    /// The default structure: the first one created (by the schema migration that introduced structures).
    static let defaultStructureSQL = "SELECT structure_id FROM structures ORDER BY created_at, rowid LIMIT 1"

    /// Every structure, the default first.
    public func structures() async throws(HubStoreError) -> [StructureRecord] {
        try await onQueue { [self] () throws(HubStoreError) in try structuresOnQueue() }
    }

    /// `structures()` for code already on the store's queue (or a commit observer, on the writer's).
    func structuresOnQueue() throws(HubStoreError) -> [StructureRecord] {
        try read("SELECT structure_id, name FROM structures ORDER BY created_at, rowid").map {
            values throws(HubStoreError) in
            let row = StoredRow(table: "structures", values: values)
            return StructureRecord(id: try row.text("structure_id"), name: try row.text("name"))
        }
    }

    public func renameStructure(_ structureID: String, to name: String) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                let changed = try transaction.query(
                    "UPDATE structures SET name = ? WHERE structure_id = ? RETURNING structure_id",
                    [.text(name), .text(structureID)])
                guard !changed.isEmpty else { throw HubStoreError.unknownStructure(structureID) }
            }
        }
    }

    /// Every room, in order of creation.
    public func rooms() async throws(HubStoreError) -> [RoomRecord] {
        try await onQueue { [self] () throws(HubStoreError) in try roomsOnQueue() }
    }

    /// `rooms()` for code already on the store's queue (or a commit observer, on the writer's).
    func roomsOnQueue() throws(HubStoreError) -> [RoomRecord] {
        try read("SELECT room_id, name, structure_id FROM rooms ORDER BY created_at, rowid").map {
            values throws(HubStoreError) in
            let row = StoredRow(table: "rooms", values: values)
            return RoomRecord(
                id: try row.text("room_id"), name: try row.text("name"), structureID: try row.text("structure_id"))
        }
    }

    /// Creates a room in the structure; its ID is a fresh UUID. A room of the same name (whatever its case) is refused.
    public func createRoom(named name: String, in structureID: String) async throws(HubStoreError) -> RoomRecord {
        try await onQueue { [self] () throws(HubStoreError) in
            let room = RoomRecord(id: UUID().uuidString, name: name, structureID: structureID)
            try write(touching: []) { transaction in
                if try transaction.query("SELECT 1 FROM structures WHERE structure_id = ?", [.text(structureID)])
                    .isEmpty
                {
                    throw HubStoreError.unknownStructure(structureID)
                }
                try Self.requireFreeRoomName(name, except: nil, in: transaction)
                try transaction.query(
                    "INSERT INTO rooms (room_id, name, structure_id, created_at, group_id) VALUES (?, ?, ?, ?, ?)",
                    [
                        .text(room.id), .text(name), .text(structureID), .date(Self.now()),
                        .integer(Int64(try Self.nextGroupID(in: transaction))),
                    ])
            }
            return room
        }
    }

    /// Renames the room (and so the room name of its devices' records).
    public func renameRoom(_ roomID: String, to name: String) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                try Self.requireFreeRoomName(name, except: roomID, in: transaction)
                let changed = try transaction.query(
                    "UPDATE rooms SET name = ? WHERE room_id = ? RETURNING room_id", [.text(name), .text(roomID)])
                guard !changed.isEmpty else { throw HubStoreError.unknownRoom(roomID) }
            }
        }
    }

    /// Deletes the room; its devices stay in the home, in no room.
    public func deleteRoom(_ roomID: String) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                let deleted = try transaction.query(
                    "DELETE FROM rooms WHERE room_id = ? RETURNING room_id", [.text(roomID)])
                guard !deleted.isEmpty else { throw HubStoreError.unknownRoom(roomID) }
            }
        }
    }

    private static func requireFreeRoomName(
        _ name: String, except roomID: String?, in transaction: SQLiteDatabase.Transaction
    ) throws {
        let others = try rooms(in: transaction).filter { $0.id != roomID }
        guard NameMatch.first(name, in: others, named: \.name) == nil else { throw HubStoreError.roomExists(name) }
    }

    private static func rooms(in transaction: SQLiteDatabase.Transaction) throws -> [(id: String, name: String)] {
        try transaction.query("SELECT room_id, name FROM rooms ORDER BY created_at, rowid", []).map { values in
            let row = StoredRow(table: "rooms", values: values)
            return (id: try row.text("room_id"), name: try row.text("name"))
        }
    }

    /// The room called `name`, as `NameMatch` finds it: every lookup and the uniqueness check use that one rule, so a
    /// name the store refuses as taken is the name a lookup finds. (The column's NOCASE collation folds ASCII only; it
    /// stays as a backstop.)
    static func roomID(named name: String, in transaction: SQLiteDatabase.Transaction) throws -> String? {
        NameMatch.first(name, in: try rooms(in: transaction), named: \.name)?.id
    }
}
