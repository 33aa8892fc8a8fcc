import HomeHub
import HomeRecords
import HubWire

/// Devices moved into a room.
public struct MoveDevices: HubOperation {
    public static let name = "moveDevices"
    public let parts: [DeviceID]
    public let roomID: String

    public init(_ parts: [DeviceID], roomID: String) {
        self.parts = parts
        self.roomID = roomID
    }

    /// Within a structure every caller's; into another structure, `HubEngine.checkMoving`'s.
    public var access: HubAccess { .member }
    public var summary: String { "move a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        let snapshot = scope.engine.model.snapshot
        if let destination = snapshot.rooms.first(where: { $0.id == roomID })?.structureID {
            let moved = Set(parts)
            let from = Set(
                snapshot.devices.values.joined().filter { moved.contains($0.id) }.compactMap {
                    snapshot.structureID(ofRoom: $0.roomID)
                })
            try await scope.engine.checkMoving(from: from, to: destination, of: summary, for: scope.caller)
        }
        try await scope.engine.write { store async throws(HubStoreError) in
            try await store.moveDevices(parts, toRoom: roomID)
        }
        return Done()
    }
}
