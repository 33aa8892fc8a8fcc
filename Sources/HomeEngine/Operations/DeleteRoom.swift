import HomeHub
import HomeRecords
import HubWire

/// A room deleted; its devices are left without a room.
public struct DeleteRoom: HubOperation {
    public static let name = "deleteRoom"
    public let roomID: String

    public init(roomID: String) {
        self.roomID = roomID
    }

    public var access: HubAccess { .member }
    public var summary: String { "delete a room" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        try await scope.engine.write { store async throws(HubStoreError) in try await store.deleteRoom(roomID) }
        await scope.engine.publishCommissioningSession()
        return Done()
    }
}
