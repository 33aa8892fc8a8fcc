import HomeHub
import HomeRecords
import HubWire

/// A named group deleted; its devices stay in the home and are taken out of its Matter group.
public struct DeleteGroup: HubOperation {
    public static let name = "deleteGroup"
    public let groupID: UInt16

    public init(groupID: UInt16) {
        self.groupID = groupID
    }

    public var access: HubAccess { .member }
    public var summary: String { "delete a group" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        try await scope.engine.write { store async throws(HubStoreError) in try await store.deleteGroup(groupID) }
        return Done()
    }
}
