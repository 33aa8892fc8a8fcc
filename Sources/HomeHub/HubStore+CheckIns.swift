import Foundation
import HomeRecords
import MatterPlatform

/// The hub's registrations as the check-in client of its Long Idle Time devices (Matter Core §9.16 and §4.20): one a
/// node, with the key it registered. Keys are secrets: they live in the database (0600, in the 0700 state directory)
/// and never leave the hub.
extension HubStore {
    /// One registration: how to open the node's check-ins and when the next is due.
    public struct CheckInRegistration: Sendable, Hashable {
        public let nodeID: UInt64
        public let key: [UInt8]
        /// The device's ICDCounter when the hub registered.
        public let startCounter: UInt32
        /// The highest counter heard, as an offset from `startCounter` (§4.20.2.4: counters wrap); nil: none yet.
        public var lastOffset: UInt32?
        /// IdleModeDuration (seconds) and ActiveModeDuration (milliseconds) as the device stated them at registration.
        public let idleSeconds: UInt32
        public let activeMilliseconds: UInt32

        public init(
            nodeID: UInt64, key: [UInt8], startCounter: UInt32, lastOffset: UInt32? = nil, idleSeconds: UInt32,
            activeMilliseconds: UInt32
        ) {
            self.nodeID = nodeID
            self.key = key
            self.startCounter = startCounter
            self.lastOffset = lastOffset
            self.idleSeconds = idleSeconds
            self.activeMilliseconds = activeMilliseconds
        }

        /// The longest the device goes between wakes (one idle and one active period): a check-in is due within it.
        public var period: Duration { .seconds(Int64(idleSeconds)) + .milliseconds(Int64(activeMilliseconds)) }
    }

    public func checkInRegistrations() async throws(HubStoreError) -> [CheckInRegistration] {
        try await onQueue { [self] () throws(HubStoreError) in
            try read(
                """
                SELECT node_id, check_in_key, start_counter, last_offset, idle_seconds, active_milliseconds
                    FROM icd_registrations ORDER BY node_id
                """
            ).map { values throws(HubStoreError) in
                let row = StoredRow(table: "icd_registrations", values: values)
                return CheckInRegistration(
                    nodeID: UInt64(bitPattern: try row.integer("node_id")), key: try row.blob("check_in_key"),
                    startCounter: UInt32(truncatingIfNeeded: try row.integer("start_counter")),
                    lastOffset: try row.optionalInteger("last_offset").map { UInt32(truncatingIfNeeded: $0) },
                    idleSeconds: UInt32(truncatingIfNeeded: try row.integer("idle_seconds")),
                    activeMilliseconds: UInt32(truncatingIfNeeded: try row.integer("active_milliseconds")))
            }
        }
    }

    /// Stores a registration, replacing the node's earlier one.
    public func saveCheckInRegistration(_ registration: CheckInRegistration) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                try transaction.query(
                    """
                    INSERT OR REPLACE INTO icd_registrations (node_id, check_in_key, start_counter, last_offset,
                        idle_seconds, active_milliseconds, registered_at) VALUES (?, ?, ?, ?, ?, ?, ?)
                    """,
                    [
                        .integer(Int64(bitPattern: registration.nodeID)), .blob(registration.key),
                        .integer(Int64(registration.startCounter)),
                        registration.lastOffset.map { .integer(Int64($0)) } ?? .null,
                        .integer(Int64(registration.idleSeconds)), .integer(Int64(registration.activeMilliseconds)),
                        .date(Self.now()),
                    ])
            }
        }
    }

    /// Notes the offset of a check-in heard, when it is above the last (a replay or an old one changes nothing);
    /// whether it was new.
    public func noteCheckIn(nodeID: UInt64, offset: UInt32) async throws(HubStoreError) -> Bool {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                !(try transaction.query(
                    """
                    UPDATE icd_registrations SET last_offset = ?
                        WHERE node_id = ? AND (last_offset IS NULL OR last_offset < ?) RETURNING node_id
                    """, [.integer(Int64(offset)), .integer(Int64(bitPattern: nodeID)), .integer(Int64(offset))]
                ).isEmpty)
            }
        }
    }

    /// Forgets the node's registration (the hub unregistered, or will register again); false when there was none.
    @discardableResult
    public func removeCheckInRegistration(nodeID: UInt64) async throws(HubStoreError) -> Bool {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: []) { transaction in
                !(try transaction.query(
                    "DELETE FROM icd_registrations WHERE node_id = ? RETURNING node_id",
                    [.integer(Int64(bitPattern: nodeID))]
                ).isEmpty)
            }
        }
    }
}
