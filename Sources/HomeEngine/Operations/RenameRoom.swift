import HomeHub
import HomeRecords
import HubWire

/// A room renamed; replies the name as the hub kept it.
public struct RenameRoom: HubOperation {
    public static let name = "renameRoom"
    public let roomID: String
    public let newName: String

    public init(roomID: String, name: String) {
        self.roomID = roomID
        self.newName = name
    }

    public var access: HubAccess { .member }
    public var summary: String { "rename a room" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> String {
        let valid = try HomeName.validated(newName, naming: "room")
        try await scope.engine.write { store async throws(HubStoreError) in
            try await store.renameRoom(roomID, to: valid)
        }
        // An open add-device session lists the rooms as they are now.
        await scope.engine.publishCommissioningSession()
        return valid
    }
}
