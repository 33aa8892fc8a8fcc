import HomeHub
import HomeRecords

/// What `home devices` prints: a table, or a JSON array; with the nodes' connectivity when it was checked (`--live`).
enum DeviceList {
    static func render(_ devices: [DeviceRecord], connectivity: [UInt64: NodeConnection.State]?, json: Bool) -> String {
        if json {
            return JSONValue.array(
                devices.map { device in .object(jsonMembers(device, connectivity: connectivity?[device.id.nodeID])) }
            ).rendered + "\n"
        }
        guard !devices.isEmpty else { return "No devices yet. Add one with 'home commission CODE'.\n" }
        var header = ["ID", "NAME", "ROOM", "VENDOR", "PRODUCT", "DEVICE TYPES"]
        if connectivity != nil { header.insert("CONNECTIVITY", at: 3) }
        let rows = devices.map { device in
            var row = [
                device.id.description, device.name, device.roomName ?? "-",
                "\(device.node.vendorName ?? "?") (0x\(paddedHex(device.node.vendorID)))",
                "\(device.node.productName ?? "?") (0x\(paddedHex(device.node.productID)))",
                DeviceTypeNames.list(device.deviceTypes) + (device.node.attestation.trusted ? "" : " [untrusted]"),
            ]
            if let connectivity {
                row.insert(connectivity[device.id.nodeID].map(LiveConnectivity.describe) ?? "-", at: 3)
            }
            return row
        }
        return TextTable.render(header: header, rows: rows)
    }

    /// One device; `connectivity` only when it was checked.
    static func jsonMembers(_ device: DeviceRecord, connectivity: NodeConnection.State?) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("id", .string(device.id.description)),
            ("name", .string(device.name)),
            ("room", device.roomName.map(JSONValue.string) ?? .null),
            ("nodeID", .string(paddedHex(device.node.nodeID))),
            ("endpoint", .unsigned(UInt64(device.id.endpoint))),
            ("vendorID", .unsigned(UInt64(device.node.vendorID))),
            ("vendorName", device.node.vendorName.map(JSONValue.string) ?? .null),
            ("productID", .unsigned(UInt64(device.node.productID))),
            ("productName", device.node.productName.map(JSONValue.string) ?? .null),
            ("deviceTypes", DeviceTypeNames.json(device.deviceTypes)),
            ("tags", SemanticTagText.json(device.semanticTags)),
            ("attestationTrusted", .bool(device.node.attestation.trusted)),
        ]
        if let connectivity { members += LiveConnectivity.json(connectivity) }
        return members
    }
}
