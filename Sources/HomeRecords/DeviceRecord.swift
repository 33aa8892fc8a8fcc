/// A device as the home shows it: one application endpoint of a commissioned node, with its name and room.
public struct DeviceRecord: Sendable, Hashable, Codable {
    public var id: DeviceID
    public var name: String
    public var roomID: String?
    public var roomName: String?
    public var node: NodeRecord
    /// The device types of this endpoint.
    public var deviceTypes: [EndpointDeviceType]
    /// The device types of the node's root endpoint (0): Root Node, whose Basic Information and General Diagnostics
    /// describe the whole node. Empty for a device that is endpoint 0 itself.
    public var rootDeviceTypes: [EndpointDeviceType]
    /// This endpoint's semantic tags (Descriptor TagList), in the device's order: what tells the parts of a node apart.
    public var semanticTags: [EndpointSemanticTag]

    public init(
        id: DeviceID, name: String, roomID: String?, roomName: String?, node: NodeRecord,
        deviceTypes: [EndpointDeviceType],
        rootDeviceTypes: [EndpointDeviceType] = [], semanticTags: [EndpointSemanticTag] = []
    ) {
        self.id = id
        self.name = name
        self.roomID = roomID
        self.roomName = roomName
        self.node = node
        self.deviceTypes = deviceTypes
        self.rootDeviceTypes = rootDeviceTypes
        self.semanticTags = semanticTags
    }
}

/// Names a device: its node and endpoint, written `<node ID, 16 hex digits>-<endpoint>` (e.g. `8FC7772401CD0696-1`).
public struct DeviceID: Hashable, Sendable, Comparable, Codable, CustomStringConvertible {
    public var nodeID: UInt64
    public var endpoint: UInt16

    public init(nodeID: UInt64, endpoint: UInt16) {
        self.nodeID = nodeID
        self.endpoint = endpoint
    }

    public init?(_ text: String) {
        let parts = text.split(separator: "-")
        guard parts.count == 2, parts[0].count == 16, let nodeID = UInt64(parts[0], radix: 16),
            let endpoint = UInt16(parts[1])
        else {
            return nil
        }
        self.init(nodeID: nodeID, endpoint: endpoint)
    }

    public var description: String {
        let hex = String(nodeID, radix: 16, uppercase: true)
        return String(repeating: "0", count: 16 - hex.count) + hex + "-\(endpoint)"
    }

    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool {
        (lhs.nodeID, lhs.endpoint) < (rhs.nodeID, rhs.endpoint)
    }
}
