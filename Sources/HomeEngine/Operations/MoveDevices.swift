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

    public var access: HubAccess { .member }
    public var summary: String { "move a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        try await scope.engine.write { store async throws(HubStoreError) in
            try await store.moveDevices(parts, toRoom: roomID)
        }
        return Done()
    }
}
