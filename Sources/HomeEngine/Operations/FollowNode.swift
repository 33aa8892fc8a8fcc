import HubWire

/// Starts following the node live; replies once it has had its first contact (or its first-contact wait).
public struct FollowNode: HubOperation {
    public static let name = "followNode"
    public let nodeID: UInt64

    public init(nodeID: UInt64) {
        self.nodeID = nodeID
    }

    public var access: HubAccess { .member }
    public var summary: String { "follow a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        _ = try await scope.engine.live.connection(to: nodeID)
        return Done()
    }
}
