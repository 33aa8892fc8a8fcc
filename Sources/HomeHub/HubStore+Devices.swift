import Foundation
import MatterPlatform

/// Devices and rooms: what the home shows on top of the nodes.
extension HubStore {
    /// Device types that make an endpoint a device of its own; the root node and an aggregator's own endpoint do not.
    static let nonDeviceTypes: Set<UInt32> = [0x0016 /* Root Node */, 0x000E /* Aggregator */, 0x0011 /* Power Source */]

    /// Adds the devices of a newly commissioned node: every endpoint with a device type of its own (the root
    /// endpoint only when there is nothing else). Named `name` (numbered when there are several), in `room`.
    @discardableResult
    public func addDevices(of nodeID: UInt64, named name: String, inRoom room: String?) throws(HubStoreError) -> [DeviceID] {
        let endpoints = try endpoints(of: nodeID)
        var deviceEndpoints = Set(endpoints.filter { $0.endpoint != 0 && !Self.nonDeviceTypes.contains($0.deviceType) }.map(\.endpoint)).sorted()
        if deviceEndpoints.isEmpty { deviceEndpoints = [0] }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidName(name) }
        let now = Self.now()
        return try write { transaction in
            let roomID = try room.map { try Self.roomID(named: $0, creatingIn: transaction, at: now) }
            return try deviceEndpoints.enumerated().map { index, endpoint in
                let deviceName = deviceEndpoints.count == 1 ? trimmed : "\(trimmed) \(index + 1)"
                try transaction.query(
                    "INSERT INTO devices (node_id, endpoint, name, room_id, created_at) VALUES (?, ?, ?, ?, ?)",
                    [.identifier(nodeID), .integer(Int64(endpoint)), .text(deviceName), roomID.map { .text($0) } ?? .null, .date(now)])
                return DeviceID(nodeID: nodeID, endpoint: endpoint)
            }
        }
    }

    /// Every device of a commissioned node, in order of node creation and endpoint.
    public func devices() throws(HubStoreError) -> [DeviceRecord] {
        let nodes = Dictionary(uniqueKeysWithValues: try self.nodes().map { ($0.nodeID, $0) })
        var devices: [DeviceRecord] = []
        let rows = try read(
            """
            SELECT d.node_id, d.endpoint, d.name, d.room_id, r.name AS room_name FROM devices d
            JOIN nodes n ON n.node_id = d.node_id LEFT JOIN rooms r ON r.room_id = d.room_id
            WHERE n.state = 'commissioned' ORDER BY n.created_at, n.rowid, d.endpoint
            """)
        for values in rows {
            let row = StoredRow(table: "devices", values: values)
            let nodeID = try row.identifier("node_id")
            guard let node = nodes[nodeID] else { continue }
            let endpoint = try row.narrow("endpoint", as: UInt16.self)
            devices.append(DeviceRecord(
                id: DeviceID(nodeID: nodeID, endpoint: endpoint), name: try row.text("name"),
                roomID: try row.optionalText("room_id"), roomName: try row.optionalText("room_name"), node: node,
                deviceTypes: try endpoints(of: nodeID).filter { $0.endpoint == endpoint }))
        }
        return devices
    }

    public func device(_ id: DeviceID) throws(HubStoreError) -> DeviceRecord? {
        try devices().first { $0.id == id }
    }

    /// The room with this name (case-insensitive), created when absent; its ID is a fresh UUID.
    static func roomID(named name: String, creatingIn transaction: SQLiteDatabase.Transaction, at now: Date) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw HubStoreError.invalidName(name) }
        if let existing = try transaction.query("SELECT room_id FROM rooms WHERE name = ?", [.text(trimmed)]).first {
            return try StoredRow(table: "rooms", values: existing).text("room_id")
        }
        let roomID = UUID().uuidString
        try transaction.query("INSERT INTO rooms (room_id, name, created_at) VALUES (?, ?, ?)", [.text(roomID), .text(trimmed), .date(now)])
        return roomID
    }
}
