import Foundation
import HomeRecords
import MatterPlatform

/// Devices and rooms: what the home shows on top of the nodes.
extension HubStore {
    /// Device types that make an endpoint a device of its own; the root node and an aggregator's own endpoint do not.
    static let nonDeviceTypes: Set<UInt32> = [
        0x0016 /* Root Node */, 0x000E /* Aggregator */, 0x0011 /* Power Source */,
    ]

    /// Adds the devices of a newly commissioned node: every endpoint with a device type of its own (the root
    /// endpoint only when there is nothing else). Named `name` (numbered when there are several), in `room`.
    @discardableResult
    public func addDevices(
        of nodeID: UInt64, named name: String, inRoom room: String?
    ) async throws(HubStoreError) -> [DeviceID] {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [nodeID]) { transaction in
                try Self.insertDevices(of: nodeID, named: name, inRoom: room, in: transaction)
            }
        }
    }

    /// A commissioning of a device whose interrupted commissioning was finished apart from it (`recoveredAt`) found
    /// it already ours: the node's devices are named (numbered when several) and placed as that commissioning asks,
    /// when it asks (a room created when new), and the node is adopted: a later commissioning of it is refused as
    /// for any device already on the hub.
    @discardableResult
    public func adoptRecovered(
        _ nodeID: UInt64, named name: String?, inRoom room: String?
    ) async throws(HubStoreError) -> [DeviceID] {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [nodeID]) { transaction in
                let adopted = try transaction.query(
                    "UPDATE nodes SET recovered_at = NULL WHERE node_id = ? AND recovered_at IS NOT NULL RETURNING node_id",
                    [.identifier(nodeID)])
                guard !adopted.isEmpty else { throw HubStoreError.unknownNode(nodeID) }
                if let name {
                    try transaction.query("DELETE FROM devices WHERE node_id = ?", [.identifier(nodeID)])
                    return try Self.insertDevices(of: nodeID, named: name, inRoom: room, in: transaction)
                }
                if let room {
                    let roomID = try Self.roomID(named: room, creatingIn: transaction, at: Self.now())
                    try transaction.query(
                        "UPDATE devices SET room_id = ? WHERE node_id = ?", [.text(roomID), .identifier(nodeID)])
                }
                return try transaction.query(
                    "SELECT endpoint FROM devices WHERE node_id = ? ORDER BY endpoint", [.identifier(nodeID)]
                ).map { values in
                    DeviceID(
                        nodeID: nodeID,
                        endpoint: try StoredRow(table: "devices", values: values).narrow("endpoint", as: UInt16.self))
                }
            }
        }
    }

    static func insertDevices(
        of nodeID: UInt64, named name: String, inRoom room: String?,
        in transaction: SQLiteDatabase.Transaction
    ) throws -> [DeviceID] {
        let deviceEndpoints = deviceEndpoints(of: try storedEndpoints(of: nodeID, in: transaction))
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw HubStoreError.invalidName(name) }
        let now = Self.now()
        let roomID = try room.map { try Self.roomID(named: $0, creatingIn: transaction, at: now) }
        return try deviceEndpoints.enumerated().map { index, endpoint in
            let deviceName = deviceEndpoints.count == 1 ? trimmed : "\(trimmed) \(index + 1)"
            try transaction.query(
                "INSERT INTO devices (node_id, endpoint, name, room_id, created_at) VALUES (?, ?, ?, ?, ?)",
                [
                    .identifier(nodeID), .integer(Int64(endpoint)), .text(deviceName),
                    roomID.map { .text($0) } ?? .null, .date(now),
                ])
            return DeviceID(nodeID: nodeID, endpoint: endpoint)
        }
    }

    /// The endpoints that are devices of their own: every endpoint with a device type of its own, or the root
    /// endpoint when there is nothing else.
    static func deviceEndpoints(of endpoints: [EndpointDeviceType]) -> [UInt16] {
        let own = Set(endpoints.filter { $0.endpoint != 0 && !nonDeviceTypes.contains($0.deviceType) }.map(\.endpoint))
            .sorted()
        return own.isEmpty ? [0] : own
    }

    /// Brings a commissioned node's endpoints, tags and devices in step with what its Descriptor clusters say now (a
    /// bridge adds or drops bridged devices; a firmware update changes device types): in one transaction, the
    /// endpoints and tags are replaced, a device is added for each new endpoint (named by `name`, in no room) and
    /// removed with its endpoint; devices that stay keep their names and rooms. Returns whether anything changed.
    @discardableResult
    public func reconcileEndpoints(
        of nodeID: UInt64, with description: NodeDescription,
        naming name: @escaping @Sendable (EndpointDescription?) -> String
    ) async throws(HubStoreError) -> Bool {
        try await onQueue { [self] () throws(HubStoreError) in
            let types = description.endpointDeviceTypes
            let tags = description.endpointSemanticTags
            // Not a whole node: leave the store alone.
            guard types.contains(where: { $0.endpoint == 0 }) else { return false }
            return try write(touching: [nodeID]) { transaction in
                guard
                    let values = try transaction.query(
                        "SELECT state FROM nodes WHERE node_id = ?", [.identifier(nodeID)]
                    )
                    .first,
                    try StoredRow(table: "nodes", values: values).text("state")
                        == NodeRecord.CommissioningState.commissioned.rawValue
                else {
                    throw HubStoreError.unknownNode(nodeID)
                }
                let storedTypes = try Self.storedEndpoints(of: nodeID, in: transaction)
                let storedTags = try Self.storedTags(of: nodeID, in: transaction)
                guard Set(storedTypes) != Set(types) || storedTags != tags else { return false }
                try Self.replaceEndpoints(types, tags: tags, of: nodeID, in: transaction)
                let wanted = Set(Self.deviceEndpoints(of: types))
                let present = Set(
                    try transaction.query("SELECT endpoint FROM devices WHERE node_id = ?", [.identifier(nodeID)]).map {
                        values in
                        try StoredRow(table: "devices", values: values).narrow("endpoint", as: UInt16.self)
                    })
                for endpoint in present.subtracting(wanted) {
                    try transaction.query(
                        "DELETE FROM devices WHERE node_id = ? AND endpoint = ?",
                        [.identifier(nodeID), .integer(Int64(endpoint))])
                }
                let now = Self.now()
                for endpoint in wanted.subtracting(present).sorted() {
                    try transaction.query(
                        "INSERT INTO devices (node_id, endpoint, name, room_id, created_at) VALUES (?, ?, ?, NULL, ?)",
                        [
                            .identifier(nodeID), .integer(Int64(endpoint)),
                            .text(name(description.endpoints.first { $0.endpoint == endpoint })),
                            .date(now),
                        ])
                }
                return true
            }
        }
    }

    /// Every device of a commissioned node, in order of node creation and endpoint.
    public func devices() async throws(HubStoreError) -> [DeviceRecord] {
        try await onQueue { [self] () throws(HubStoreError) in try devicesOnQueue() }
    }

    /// The devices of one node, in endpoint order; empty when it is not a commissioned node.
    public func devices(of nodeID: UInt64) async throws(HubStoreError) -> [DeviceRecord] {
        try await onQueue { [self] () throws(HubStoreError) in try devicesOnQueue(of: nodeID) }
    }

    /// `devices()` and `devices(of:)` for code already on the store's queue (or a commit observer, on the writer's).
    func devicesOnQueue(of nodeID: UInt64? = nil) throws(HubStoreError) -> [DeviceRecord] {
        guard let nodeID else { return try devices(ofNodesWhere: "1", []) }
        return try devices(ofNodesWhere: "node_id = ?", [.identifier(nodeID)])
    }

    private func devices(
        ofNodesWhere condition: String, _ bindings: [SQLiteDatabase.Value]
    ) throws(HubStoreError) -> [DeviceRecord] {
        let nodes = Dictionary(uniqueKeysWithValues: try self.nodes(where: condition, bindings).map { ($0.nodeID, $0) })
        let deviceTypes = try endpoints(ofNodesWhere: condition, bindings)
        var tags: [DeviceID: [EndpointSemanticTag]] = [:]
        for (nodeID, tag) in try semanticTags(where: condition, bindings) {
            tags[DeviceID(nodeID: nodeID, endpoint: tag.endpoint), default: []].append(tag)
        }
        var devices: [DeviceRecord] = []
        let rows = try read(
            """
            SELECT d.node_id, d.endpoint, d.name, d.room_id, r.name AS room_name FROM devices d
            JOIN nodes n ON n.node_id = d.node_id LEFT JOIN rooms r ON r.room_id = d.room_id
            WHERE n.state = 'commissioned' AND d.node_id IN (SELECT node_id FROM nodes WHERE \(condition))
            ORDER BY n.created_at, n.rowid, d.endpoint
            """, bindings)
        for values in rows {
            let row = StoredRow(table: "devices", values: values)
            let nodeID = try row.identifier("node_id")
            guard let node = nodes[nodeID] else { continue }
            let endpoint = try row.narrow("endpoint", as: UInt16.self)
            devices.append(
                DeviceRecord(
                    id: DeviceID(nodeID: nodeID, endpoint: endpoint), name: try row.text("name"),
                    roomID: try row.optionalText("room_id"), roomName: try row.optionalText("room_name"), node: node,
                    deviceTypes: deviceTypes[DeviceID(nodeID: nodeID, endpoint: endpoint)] ?? [],
                    rootDeviceTypes: endpoint == 0 ? [] : deviceTypes[DeviceID(nodeID: nodeID, endpoint: 0)] ?? [],
                    semanticTags: tags[DeviceID(nodeID: nodeID, endpoint: endpoint)] ?? []))
        }
        return devices
    }

    /// The device types of every endpoint of the nodes the condition selects, in one query (a home may have thousands
    /// of devices).
    private func endpoints(
        ofNodesWhere condition: String, _ bindings: [SQLiteDatabase.Value]
    ) throws(HubStoreError) -> [DeviceID: [EndpointDeviceType]] {
        var endpoints: [DeviceID: [EndpointDeviceType]] = [:]
        let rows = try read(
            "SELECT * FROM endpoints WHERE node_id IN (SELECT node_id FROM nodes WHERE \(condition)) ORDER BY node_id, endpoint, device_type",
            bindings)
        for values in rows {
            let row = StoredRow(table: "endpoints", values: values)
            let endpoint = try row.narrow("endpoint", as: UInt16.self)
            endpoints[DeviceID(nodeID: try row.identifier("node_id"), endpoint: endpoint), default: []].append(
                EndpointDeviceType(
                    endpoint: endpoint, deviceType: try row.narrow("device_type", as: UInt32.self),
                    revision: try row.narrow("revision", as: UInt16.self)))
        }
        return endpoints
    }

    /// Renames one device (one endpoint). The name is stored as given: the caller validates it.
    public func renameDevice(_ id: DeviceID, to name: String) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [id.nodeID]) { transaction in
                let changed = try transaction.query(
                    "UPDATE devices SET name = ? WHERE node_id = ? AND endpoint = ? RETURNING node_id",
                    [.text(name), .identifier(id.nodeID), .integer(Int64(id.endpoint))])
                guard !changed.isEmpty else { throw HubStoreError.unknownDevice(id) }
            }
        }
    }

    /// Names the whole node, shown when the node is one device of several parts.
    public func renameNode(_ nodeID: UInt64, to name: String) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: [nodeID]) { transaction in
                let changed = try transaction.query(
                    "UPDATE nodes SET name = ? WHERE node_id = ? RETURNING node_id", [.text(name), .identifier(nodeID)])
                guard !changed.isEmpty else { throw HubStoreError.unknownNode(nodeID) }
            }
        }
    }

    /// Puts the devices in `roomID` (or in no room when nil): all of them or none.
    public func moveDevices(_ ids: [DeviceID], toRoom roomID: String?) async throws(HubStoreError) {
        try await onQueue { [self] () throws(HubStoreError) in
            try write(touching: Set(ids.map(\.nodeID))) { transaction in
                if let roomID, try transaction.query("SELECT 1 FROM rooms WHERE room_id = ?", [.text(roomID)]).isEmpty {
                    throw HubStoreError.unknownRoom(roomID)
                }
                for id in ids {
                    let changed = try transaction.query(
                        "UPDATE devices SET room_id = ? WHERE node_id = ? AND endpoint = ? RETURNING node_id",
                        [.optionalText(roomID), .identifier(id.nodeID), .integer(Int64(id.endpoint))])
                    guard !changed.isEmpty else { throw HubStoreError.unknownDevice(id) }
                }
            }
        }
    }

    public func device(_ id: DeviceID) async throws(HubStoreError) -> DeviceRecord? {
        try await onQueue { [self] () throws(HubStoreError) in
            try devices(ofNodesWhere: "node_id = ?", [.identifier(id.nodeID)]).first { $0.id == id }
        }
    }

    /// The room with this name (`roomID(named:in:)`), created in the default structure when absent; its ID is a fresh UUID.
    static func roomID(
        named name: String, creatingIn transaction: SQLiteDatabase.Transaction, at now: Date
    ) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw HubStoreError.invalidName(name) }
        if let existing = try roomID(named: trimmed, in: transaction) { return existing }
        let roomID = UUID().uuidString
        try transaction.query(
            "INSERT INTO rooms (room_id, name, structure_id, created_at, group_id) VALUES (?, ?, (\(defaultStructureSQL)), ?, ?)",
            [.text(roomID), .text(trimmed), .date(now), .integer(Int64(try nextGroupID(in: transaction)))])
        return roomID
    }
}
