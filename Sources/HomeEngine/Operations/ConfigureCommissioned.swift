import HomeHub
import HubWire

/// The name and room of what the open add-device session commissioned.
public struct ConfigureCommissioned: HubOperation {
    public static let name = "configureCommissioned"
    public let deviceName: String
    public let room: String?

    public init(name: String, room: String?) {
        self.deviceName = name
        self.room = room
    }

    public var access: HubAccess { .member }
    public var summary: String { "add a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        let engine = scope.engine
        return try await engine.changingCommissioningSession { () async throws(HomeError) in
            let session = try await engine.liveSession()
            // The session's opener held the devices right; whoever uses it (its helper, another process) must too.
            try await engine.check(.right(.devices, structureID: session.structureID), of: summary, for: scope.caller)
            let name = try HomeName.validated(deviceName, naming: "device")
            let roomName = try room.map { room throws(HomeError) in try HomeName.validated(room, naming: "room") }
            try await engine.write { store async throws(HubStoreError) in
                try await store.configureSessionDevices(session.id, name: name, roomName: roomName)
            }
            return Done()
        }
    }
}
