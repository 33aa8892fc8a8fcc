import Foundation
import HomeRecords
import MatterPlatform

/// The home's one add-device session and the nodes commissioned in it. Each change is one IMMEDIATE transaction, so two
/// processes opening a session at once cannot both succeed, and no reader sees a session half opened or half closed.
extension HubStore {
    /// The session row as stored (possibly abandoned: see `CommissioningSessionRecord.isAbandoned`), or nil.
    public func commissioningSession() async throws(HubStoreError) -> CommissioningSessionRecord? {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in try Self.session(in: transaction) }
        }
    }

    /// Opens `session` unless a live one holds the home. An abandoned one (owner gone, or past its deadline) is
    /// cleared first, with the nodes it commissioned; it is returned so the caller can undo the devices' side.
    @discardableResult
    public func openCommissioningSession(
        _ session: CommissioningSessionRecord, now: Date
    ) async throws(HubStoreError) -> CommissioningSessionRecord? {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                let existing = try Self.session(in: transaction)
                if let existing {
                    guard existing.isAbandoned(now: now) else {
                        throw HubStoreError.commissioningInProgress(existing.owner)
                    }
                    try Self.clearSession(deletingNodes: true, in: transaction)
                }
                try transaction.query(
                    """
                    INSERT INTO commissioning_session (id, session_id, structure_id, owner_pid, owner_start_ticks, deadline, interfaces,
                                                       paa_trust_store, created_at)
                    VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .text(session.id), .text(session.structureID), .integer(Int64(session.owner.pid)),
                        .integer(Int64(bitPattern: session.owner.startTicks)), .date(session.deadline),
                        .text(session.interfaces.joined(separator: ",")), .text(session.paaTrustStore),
                        .date(Self.now()),
                    ])
                return existing
            }
        }
    }

    /// Closes the session, keeping what it commissioned; returns the devices it added. Refused (and the session left
    /// open) when no device was commissioned in it.
    /// The devices the open session commissioned so far, in the order they were added; none without a session.
    public func sessionDevices() async throws(HubStoreError) -> [DeviceID] {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in try Self.sessionDevices(in: transaction) }
        }
    }

    public func completeCommissioningSession(_ sessionID: String) async throws(HubStoreError) -> [DeviceID] {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                try Self.requireSession(sessionID, in: transaction)
                let devices = try Self.sessionDevices(in: transaction)
                guard !devices.isEmpty else { throw HubStoreError.nothingCommissioned }
                try Self.clearSession(deletingNodes: false, in: transaction)
                return devices
            }
        }
    }

    /// Closes the session and deletes every node it commissioned, with their devices; returns those node IDs so the
    /// caller can remove the hub's fabric from the devices.
    public func cancelCommissioningSession(_ sessionID: String) async throws(HubStoreError) -> [UInt64] {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                try Self.requireSession(sessionID, in: transaction)
                return try Self.clearSession(deletingNodes: true, in: transaction)
            }
        }
    }

    /// Names the session's devices (numbered when there are several) and puts them in the room of that name in the
    /// session's structure, created when absent; with no room name, in no room. Returns the devices.
    @discardableResult
    public func configureSessionDevices(
        _ sessionID: String, name: String, roomName: String?
    ) async throws(HubStoreError) -> [DeviceID] {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                let session = try Self.requireSession(sessionID, in: transaction)
                let devices = try Self.sessionDevices(in: transaction)
                guard !devices.isEmpty else { throw HubStoreError.nothingCommissioned }
                var roomID: String?
                if let roomName {
                    if let existing = try Self.roomID(named: roomName, in: transaction) {
                        roomID = existing
                    } else {
                        let created = UUID().uuidString
                        try transaction.query(
                            "INSERT INTO rooms (room_id, name, structure_id, created_at, group_id) VALUES (?, ?, ?, ?, ?)",
                            [
                                .text(created), .text(roomName), .text(session.structureID), .date(Self.now()),
                                .integer(Int64(try Self.nextGroupID(in: transaction))),
                            ])
                        roomID = created
                    }
                }
                for (index, device) in devices.enumerated() {
                    let deviceName = devices.count == 1 ? name : "\(name) \(index + 1)"
                    try transaction.query(
                        "UPDATE devices SET name = ?, room_id = ? WHERE node_id = ? AND endpoint = ?",
                        [
                            .text(deviceName), roomID.map { .text($0) } ?? .null, .identifier(device.nodeID),
                            .integer(Int64(device.endpoint)),
                        ])
                }
                return devices
            }
        }
    }

    // MARK: Grants

    /// Lets the local user `uid` add devices to the structure.
    public func grantCommissioning(uid: UInt32, structureID: String) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                if try transaction.query("SELECT 1 FROM structures WHERE structure_id = ?", [.text(structureID)])
                    .isEmpty
                {
                    throw HubStoreError.unknownStructure(structureID)
                }
                try transaction.query(
                    "INSERT OR IGNORE INTO commissioning_grants (uid, structure_id, granted_at) VALUES (?, ?, ?)",
                    [.integer(Int64(uid)), .text(structureID), .date(Self.now())])
            }
        }
    }

    public func revokeCommissioning(uid: UInt32, structureID: String) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write { transaction in
                try transaction.query(
                    "DELETE FROM commissioning_grants WHERE uid = ? AND structure_id = ?",
                    [.integer(Int64(uid)), .text(structureID)])
            }
        }
    }

    public func hasCommissioningGrant(uid: UInt32, structureID: String) async throws(HubStoreError) -> Bool {
        try await onQueue { [self] () throws(HubStoreError) in
            !(try read(
                "SELECT 1 FROM commissioning_grants WHERE uid = ? AND structure_id = ?",
                [.integer(Int64(uid)), .text(structureID)])).isEmpty
        }
    }

    // MARK: Plumbing

    static func session(in transaction: SQLiteDatabase.Transaction) throws -> CommissioningSessionRecord? {
        guard let values = try transaction.query("SELECT * FROM commissioning_session").first else { return nil }
        let row = StoredRow(table: "commissioning_session", values: values)
        let nodeIDs = try transaction.query("SELECT node_id FROM commissioning_session_nodes ORDER BY rowid").map {
            values in
            try StoredRow(table: "commissioning_session_nodes", values: values).identifier("node_id")
        }
        let interfaces = try row.text("interfaces")
        return CommissioningSessionRecord(
            id: try row.text("session_id"), structureID: try row.text("structure_id"),
            owner: ProcessIdentity(
                pid: try row.narrow("owner_pid", as: Int32.self), startTicks: try row.identifier("owner_start_ticks")),
            deadline: try row.date("deadline"),
            interfaces: interfaces.isEmpty ? [] : interfaces.split(separator: ",").map(String.init),
            paaTrustStore: try row.text("paa_trust_store"), nodeIDs: nodeIDs)
    }

    @discardableResult
    static func requireSession(
        _ sessionID: String, in transaction: SQLiteDatabase.Transaction
    ) throws -> CommissioningSessionRecord {
        guard let session = try session(in: transaction), session.id == sessionID else {
            throw HubStoreError.noCommissioningSession
        }
        return session
    }

    /// Records that `nodeID` is being commissioned in the open session `sessionID`.
    static func addSessionNode(
        _ nodeID: UInt64, session sessionID: String, in transaction: SQLiteDatabase.Transaction
    ) throws {
        try requireSession(sessionID, in: transaction)
        try transaction.query("INSERT INTO commissioning_session_nodes (node_id) VALUES (?)", [.identifier(nodeID)])
    }

    private static func sessionDevices(in transaction: SQLiteDatabase.Transaction) throws -> [DeviceID] {
        try transaction.query(
            """
            SELECT d.node_id, d.endpoint FROM devices d JOIN nodes n ON n.node_id = d.node_id
            WHERE n.state = 'commissioned' AND d.node_id IN (SELECT node_id FROM commissioning_session_nodes)
            ORDER BY n.created_at, n.rowid, d.endpoint
            """
        ).map { values in
            let row = StoredRow(table: "devices", values: values)
            return DeviceID(
                nodeID: try row.identifier("node_id"), endpoint: try row.narrow("endpoint", as: UInt16.self))
        }
    }

    /// Deletes the session row and its node list (and, when asked, its nodes); returns the node IDs that were stored.
    @discardableResult
    private static func clearSession(deletingNodes: Bool, in transaction: SQLiteDatabase.Transaction) throws -> [UInt64]
    {
        let stored = try transaction.query(
            "SELECT node_id FROM nodes WHERE node_id IN (SELECT node_id FROM commissioning_session_nodes) ORDER BY rowid"
        ).map { values in
            try StoredRow(table: "nodes", values: values).identifier("node_id")
        }
        if deletingNodes {
            try transaction.query(
                "DELETE FROM nodes WHERE node_id IN (SELECT node_id FROM commissioning_session_nodes)")
        }
        try transaction.query("DELETE FROM commissioning_session_nodes")
        try transaction.query("DELETE FROM commissioning_session")
        return stored
    }
}
