import Foundation
import HomeRecords
import MatterCrypto
import MatterPlatform
import MatterSecureChannel

// Matter Core §4.17 group keys, §4.16 groups: what the hub keeps to switch a room with one message. The home has one
// group key set (its epoch key is a secret, like the IPK beside it: it lives in the database, 0600 in the 0700 state
// directory, and is never printed); each room is a group; each node records what it was last given, so one that was
// offline when its room changed is brought up to date when it returns.
extension HubStore {
    /// The ID of the home's one key set on every device (any but 0, the IPK's).
    public static let homeKeySetID: UInt16 = 1
    /// Matter Core §2.5.4: application group IDs are 0x0001 to 0xFEFF.
    static let applicationGroupIDs: ClosedRange<UInt16> = 0x0001...0xFEFF

    /// The home's group key set, made on first use: a random epoch key in force from now on.
    public func homeGroupKeySet(random: some RandomSource = SystemRandom()) async throws(HubStoreError) -> GroupKeySet {
        let fresh = random.bytes(GroupKeySet.epochKeyLength)
        let start = Self.matterEpochMicroseconds(Date())
        return try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                try transaction.query(
                    "INSERT OR IGNORE INTO group_key_sets (key_set_id, epoch_key, start_time) VALUES (?, ?, ?)",
                    [.integer(Int64(Self.homeKeySetID)), .blob(fresh), .integer(Int64(start))])
                guard
                    let values = try transaction.query(
                        "SELECT epoch_key, start_time FROM group_key_sets WHERE key_set_id = ?",
                        [.integer(Int64(Self.homeKeySetID))]
                    ).first
                else { throw HubStoreError.database(.statement(sql: "group_key_sets", message: "no key set")) }
                let row = StoredRow(table: "group_key_sets", values: values)
                return try GroupKeySet(
                    id: Self.homeKeySetID, policy: .trustFirst,
                    epochKeys: [
                        GroupKeySet.EpochKey(
                            key: try row.blob("epoch_key"), startTime: UInt64(try row.integer("start_time")))
                    ])
            }
        }
    }

    /// Each room's group ID, by room ID.
    public func roomGroupIDs() async throws(HubStoreError) -> [String: UInt16] {
        try await onQueue { [self] () throws(HubStoreError) in
            var groups: [String: UInt16] = [:]
            for values in try read("SELECT room_id, group_id FROM rooms WHERE group_id IS NOT NULL") {
                let row = StoredRow(table: "rooms", values: values)
                groups[try row.text("room_id")] = try row.narrow("group_id", as: UInt16.self)
            }
            return groups
        }
    }

    /// What `nodeID` was last given of the home's groups (`HubGroups.Plan.fingerprint`); nil when nothing yet.
    public func groupsGiven(to nodeID: UInt64) async throws(HubStoreError) -> String? {
        try await onQueue { [self] () throws(HubStoreError) in
            guard let values = try read("SELECT groups_given FROM nodes WHERE node_id = ?", [.identifier(nodeID)]).first
            else { return nil }
            return try StoredRow(table: "nodes", values: values).optionalText("groups_given")
        }
    }

    /// Records what `nodeID` now holds of the home's groups; nothing a home model shows changes.
    public func setGroupsGiven(_ fingerprint: String?, to nodeID: UInt64) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                try transaction.query(
                    "UPDATE nodes SET groups_given = ? WHERE node_id = ?",
                    [.optionalText(fingerprint), .identifier(nodeID)])
            }
        }
    }

    /// The next group ID a room takes: one past the last ever given, wrapping to the lowest free one when the
    /// application range is spent.
    static func nextGroupID(in transaction: SQLiteDatabase.Transaction) throws -> UInt16 {
        let last = try transaction.query("SELECT last FROM group_ids").first?["last"]?.integer ?? 0
        var candidate = UInt16(clamping: last + 1)
        if !applicationGroupIDs.contains(candidate) {
            let taken = Set(
                try transaction.query("SELECT group_id FROM rooms WHERE group_id IS NOT NULL").compactMap {
                    $0["group_id"]?.integer.map { UInt16(clamping: $0) }
                })
            guard let free = applicationGroupIDs.first(where: { !taken.contains($0) }) else {
                throw HubStoreError.database(.statement(sql: "group_ids", message: "every group ID is in use"))
            }
            candidate = free
        }
        try transaction.query("UPDATE group_ids SET last = ?", [.integer(Int64(candidate))])
        return candidate
    }

    /// Matter Core §2.5.? epoch-us: microseconds since 2000-01-01 00:00 UTC.
    public static func matterEpochMicroseconds(_ date: Date) -> UInt64 {
        UInt64(max(0, (date.timeIntervalSince1970 - 946_684_800) * 1_000_000))
    }
}
