import HubWire

/// Starts following the node live (nothing when it is followed already); with `untilFirstContact`, replies once it has
/// had its first contact (or its first-contact wait), else at once, its stored cache in the model.
public struct FollowNode: HubOperation {
    public static let name = "followNode"
    public let nodeID: UInt64
    public let untilFirstContact: Bool

    public init(nodeID: UInt64, untilFirstContact: Bool = true) {
        self.nodeID = nodeID
        self.untilFirstContact = untilFirstContact
    }

    public var access: HubAccess { .member }
    public var summary: String { "follow a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        if untilFirstContact {
            try await scope.engine.live.followUntilFirstContact(nodeID)
        } else {
            _ = try await scope.engine.live.connection(to: nodeID)
        }
        return Done()
    }
}
