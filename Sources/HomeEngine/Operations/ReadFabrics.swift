import HubWire

/// The fabrics on the device's node: every ecosystem that controls it, this hub's marked, in index order.
public struct ReadFabrics: HubOperation {
    public static let name = "readFabrics"
    public let device: SharedDevice

    public init(_ device: SharedDevice) {
        self.device = device
    }

    public var access: HubAccess { .nodeRight(.administer, nodeID: device.nodeID) }
    public var summary: String { "share a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> [DeviceFabric] {
        try await scope.engine.fabrics(device)
    }
}
