import HomeHub
import HomeRecords
import HubWire

/// A room created in a structure (nil: the home's default one).
public struct CreateRoom: HubOperation {
    public static let name = "createRoom"
    public let roomName: String
    public let structureID: String?

    public init(name: String, structureID: String?) {
        self.roomName = name
        self.structureID = structureID
    }

    public var access: HubAccess { .member }
    public var summary: String { "create a room" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> RoomRecord {
        let engine = scope.engine
        let valid = try HomeName.validated(roomName, naming: "room")
        let structure = try engine.structureID(structureID)
        let created = try await engine.write { store async throws(HubStoreError) in
            try await store.createRoom(named: valid, in: structure)
        }
        await engine.publishCommissioningSession()
        return created
    }
}
