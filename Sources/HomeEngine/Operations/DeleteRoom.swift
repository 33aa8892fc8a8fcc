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

    /// Every caller's, unless its devices, left in no room, fall into another structure (the home's default one):
    /// `HubEngine.checkMoving`'s then.
    public var access: HubAccess { .member }
    public var summary: String { "delete a room" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        let snapshot = scope.engine.model.snapshot
        if let structure = snapshot.rooms.first(where: { $0.id == roomID })?.structureID,
            snapshot.devices.values.joined().contains(where: { $0.roomID == roomID }),
            let destination = snapshot.structureID(ofRoom: nil)
        {
            try await scope.engine.checkMoving(
                from: [structure], to: destination, of: "delete a room whose devices fall into another structure",
                for: scope.caller)
        }
        try await scope.engine.write { store async throws(HubStoreError) in try await store.deleteRoom(roomID) }
        await scope.engine.publishCommissioningSession()
        return Done()
    }
}
