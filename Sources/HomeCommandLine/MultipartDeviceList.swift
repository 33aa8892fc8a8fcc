import HomeHub
import HomeRecords

/// What `home devices --multipart` prints: one line per node (the device the Home API shows with multipart devices on),
/// and under it one indented line per part (each application endpoint) with its device types and semantic tags.
enum MultipartDeviceList {
    /// One node's parts, in the order the store lists devices (node creation, then endpoint).
    struct Node {
        let record: NodeRecord
        let parts: [DeviceRecord]

        /// The node's own name, else its product's, else its first part's: the name the Home API gives it.
        var name: String { record.name ?? record.productName ?? parts[0].name }
        var id: String { paddedHex(record.nodeID) }
    }

    static func nodes(_ devices: [DeviceRecord]) -> [Node] {
        var order: [UInt64] = []
        var parts: [UInt64: [DeviceRecord]] = [:]
        for device in devices {
            if parts[device.id.nodeID] == nil { order.append(device.id.nodeID) }
            parts[device.id.nodeID, default: []].append(device)
        }
        return order.compactMap { nodeID in parts[nodeID].map { Node(record: $0[0].node, parts: $0) } }
    }

    static func render(_ devices: [DeviceRecord], connectivity: [UInt64: NodeConnection.State]?, json: Bool) -> String {
        let nodes = nodes(devices)
        if json {
            return JSONValue.array(
                nodes.map { .object(jsonMembers($0, connectivity: connectivity?[$0.record.nodeID])) }
            ).rendered + "\n"
        }
        guard !nodes.isEmpty else { return "No devices yet. Add one with 'home commission CODE'.\n" }
        var header = ["ID", "NAME", "ROOM", "VENDOR", "PRODUCT", "DEVICE TYPES", "TAGS"]
        if connectivity != nil { header.insert("CONNECTIVITY", at: 3) }
        var rows: [[String]] = []
        for node in nodes {
            var row = [
                node.id, node.name, node.parts[0].roomName ?? "-",
                "\(node.record.vendorName ?? "?") (0x\(paddedHex(node.record.vendorID)))",
                "\(node.record.productName ?? "?") (0x\(paddedHex(node.record.productID)))",
                (node.parts.count == 1 ? "1 part" : "\(node.parts.count) parts")
                    + (node.record.attestation.trusted ? "" : " [untrusted]"),
                "",
            ]
            if let connectivity {
                row.insert(connectivity[node.record.nodeID].map(LiveConnectivity.describe) ?? "-", at: 3)
            }
            rows.append(row)
            for part in node.parts {
                var partRow = [
                    "  " + part.id.description, part.name, part.roomName ?? "-", "", "",
                    DeviceTypeNames.list(part.deviceTypes),
                    part.semanticTags.isEmpty ? "-" : SemanticTagText.list(part.semanticTags),
                ]
                if connectivity != nil { partRow.insert("", at: 3) }
                rows.append(partRow)
            }
        }
        return TextTable.render(header: header, rows: rows)
    }

    private static func jsonMembers(_ node: Node, connectivity: NodeConnection.State?) -> [(String, JSONValue)] {
        var members: [(String, JSONValue)] = [
            ("id", .string(node.id)),
            ("name", .string(node.name)),
            ("room", node.parts[0].roomName.map(JSONValue.string) ?? .null),
            ("vendorID", .unsigned(UInt64(node.record.vendorID))),
            ("vendorName", node.record.vendorName.map(JSONValue.string) ?? .null),
            ("productID", .unsigned(UInt64(node.record.productID))),
            ("productName", node.record.productName.map(JSONValue.string) ?? .null),
            ("attestationTrusted", .bool(node.record.attestation.trusted)),
        ]
        if let connectivity { members += LiveConnectivity.json(connectivity) }
        members.append(
            (
                "parts",
                .array(
                    node.parts.map { part in
                        .object([
                            ("id", .string(part.id.description)),
                            ("name", .string(part.name)),
                            ("room", part.roomName.map(JSONValue.string) ?? .null),
                            ("endpoint", .unsigned(UInt64(part.id.endpoint))),
                            ("deviceTypes", DeviceTypeNames.json(part.deviceTypes)),
                            ("tags", SemanticTagText.json(part.semanticTags)),
                        ])
                    })
            ))
        return members
    }
}
