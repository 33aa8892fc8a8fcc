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

    /// A new epoch key for the home's key set, in force from now (after the one it replaces): a device removed from
    /// the home kept the old one, and must not be able to seal group messages the others act on. Every node is given
    /// the new one by its next groups sync (its recorded fingerprint names the old key's start time).
    public func rotateHomeGroupKeySet(random: some RandomSource = SystemRandom()) async throws(HubStoreError) {
        let fresh = random.bytes(GroupKeySet.epochKeyLength)
        let now = Self.matterEpochMicroseconds(Date())
        _ = try await homeGroupKeySet(random: random)
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                try transaction.query(
                    "UPDATE group_key_sets SET epoch_key = ?, start_time = max(start_time + 1, ?) WHERE key_set_id = ?",
                    [.blob(fresh), .integer(Int64(now)), .integer(Int64(Self.homeKeySetID))])
            }
        }
    }

    /// Each room's group ID, by room ID; a room without one (made by a build that did not give one) gets the next.
    public func roomGroupIDs() async throws(HubStoreError) -> [String: UInt16] {
        try await onQueue { [self] () throws(HubStoreError) in
            let unnumbered = try read("SELECT room_id FROM rooms WHERE group_id IS NULL ORDER BY created_at, rowid")
            if !unnumbered.isEmpty {
                try write(touching: []) { transaction in
                    for values in unnumbered {
                        try transaction.query(
                            "UPDATE rooms SET group_id = ? WHERE room_id = ? AND group_id IS NULL",
                            [.integer(Int64(try Self.nextGroupID(in: transaction))), values["room_id"] ?? .null])
                    }
                }
            }
            var groups: [String: UInt16] = [:]
            for values in try read("SELECT room_id, group_id FROM rooms WHERE group_id IS NOT NULL") {
                let row = StoredRow(table: "rooms", values: values)
                groups[try row.text("room_id")] = try row.narrow("group_id", as: UInt16.self)
            }
            return groups
        }
    }

    /// Where the hub's group message counter resumes (`GroupMessageCounter`); nil before it first sent one.
    public func groupMessageCounter() async throws(HubStoreError) -> UInt32? {
        try await onQueue { [self] () throws(HubStoreError) in
            guard let values = try read("SELECT message_counter FROM group_ids").first else { return nil }
            return try StoredRow(table: "group_ids", values: values).optionalInteger("message_counter").map {
                UInt32(truncatingIfNeeded: $0)
            }
        }
    }

    /// Stores where the hub's group message counter resumes; nothing a home model shows changes.
    public func setGroupMessageCounter(_ counter: UInt32) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                try transaction.query("UPDATE group_ids SET message_counter = ?", [.integer(Int64(counter))])
            }
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
            // Spent: the lowest ID no room or group holds now (one a device offline since may still be in).
            let taken = Set(
                try transaction.query(
                    "SELECT group_id FROM rooms WHERE group_id IS NOT NULL UNION SELECT group_id FROM device_groups"
                ).compactMap { $0["group_id"]?.integer.map { UInt16(clamping: $0) } })
            guard let free = applicationGroupIDs.first(where: { !taken.contains($0) }) else {
                throw HubStoreError.groupIDsExhausted
            }
            candidate = free
            try transaction.query("UPDATE group_ids SET last = ?", [.integer(Int64(applicationGroupIDs.upperBound))])
            return candidate
        }
        try transaction.query("UPDATE group_ids SET last = ?", [.integer(Int64(candidate))])
        return candidate
    }

    // MARK: Named groups

    /// Every named group with its devices, in order of creation.
    public func groups() async throws(HubStoreError) -> [GroupRecord] {
        try await onQueue { [self] () throws(HubStoreError) in try groupsOnQueue() }
    }

    /// `groups()` for code already on the store's queue.
    func groupsOnQueue() throws(HubStoreError) -> [GroupRecord] {
        var members: [UInt16: [DeviceID]] = [:]
        for values in try read(
            "SELECT group_id, node_id, endpoint FROM device_group_members ORDER BY node_id, endpoint")
        {
            let row = StoredRow(table: "device_group_members", values: values)
            members[try row.narrow("group_id", as: UInt16.self), default: []].append(
                DeviceID(nodeID: try row.identifier("node_id"), endpoint: try row.narrow("endpoint", as: UInt16.self)))
        }
        return try read("SELECT group_id, name, structure_id FROM device_groups ORDER BY created_at, rowid").map {
            values throws(HubStoreError) in
            let row = StoredRow(table: "device_groups", values: values)
            let id = try row.narrow("group_id", as: UInt16.self)
            return GroupRecord(
                id: id, name: try row.text("name"), structureID: try row.text("structure_id"),
                members: members[id] ?? [])
        }
    }

    /// Creates a named group of `members` in the structure, with the next group ID. A group of the same name
    /// (whatever its case) is refused, and so is a device the home does not have.
    public func createGroup(
        named name: String, in structureID: String, members: [DeviceID]
    ) async throws(HubStoreError) -> GroupRecord {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                if try transaction.query("SELECT 1 FROM structures WHERE structure_id = ?", [.text(structureID)])
                    .isEmpty
                {
                    throw HubStoreError.unknownStructure(structureID)
                }
                let others = try transaction.query("SELECT name FROM device_groups").compactMap { $0["name"]?.text }
                guard NameMatch.first(name, in: others, named: \.self) == nil else {
                    throw HubStoreError.groupExists(name)
                }
                let id = try Self.nextGroupID(in: transaction)
                try transaction.query(
                    "INSERT INTO device_groups (group_id, name, structure_id, created_at) VALUES (?, ?, ?, ?)",
                    [.integer(Int64(id)), .text(name), .text(structureID), .date(Self.now())])
                try Self.insertMembers(members, into: id, in: transaction)
                return GroupRecord(id: id, name: name, structureID: structureID, members: members.sorted())
            }
        }
    }

    /// Adds `added` to the group and takes `removed` out of it (a device not in it is no error).
    public func changeGroup(
        _ groupID: UInt16, adding added: [DeviceID], removing removed: [DeviceID]
    ) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                guard
                    !(try transaction.query(
                        "SELECT 1 FROM device_groups WHERE group_id = ?", [.integer(Int64(groupID))]
                    )
                    .isEmpty)
                else { throw HubStoreError.unknownGroup(groupID) }
                for device in removed {
                    try transaction.query(
                        "DELETE FROM device_group_members WHERE group_id = ? AND node_id = ? AND endpoint = ?",
                        [.integer(Int64(groupID)), .identifier(device.nodeID), .integer(Int64(device.endpoint))])
                }
                try Self.insertMembers(added, into: groupID, in: transaction)
            }
        }
    }

    /// Deletes the group; its devices stay in the home. Its ID is never given again.
    public func deleteGroup(_ groupID: UInt16) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                let deleted = try transaction.query(
                    "DELETE FROM device_groups WHERE group_id = ? RETURNING group_id", [.integer(Int64(groupID))])
                guard !deleted.isEmpty else { throw HubStoreError.unknownGroup(groupID) }
            }
        }
    }

    private static func insertMembers(
        _ members: [DeviceID], into groupID: UInt16, in transaction: SQLiteDatabase.Transaction
    ) throws {
        for device in members {
            guard
                !(try transaction.query(
                    "SELECT 1 FROM devices WHERE node_id = ? AND endpoint = ?",
                    [.identifier(device.nodeID), .integer(Int64(device.endpoint))]
                ).isEmpty)
            else { throw HubStoreError.unknownDevice(device) }
            try transaction.query(
                "INSERT OR IGNORE INTO device_group_members (group_id, node_id, endpoint) VALUES (?, ?, ?)",
                [.integer(Int64(groupID)), .identifier(device.nodeID), .integer(Int64(device.endpoint))])
        }
    }

    /// Matter's epoch-us time: microseconds since 2000-01-01 00:00 UTC.
    public static func matterEpochMicroseconds(_ date: Date) -> UInt64 {
        UInt64(max(0, (date.timeIntervalSince1970 - 946_684_800) * 1_000_000))
    }
}
