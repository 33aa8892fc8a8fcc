import HomeHub
import HubWire

/// The calling process's add-device session for the structure completed: its devices join the home. Replies their
/// device IDs.
public struct CompleteCommissioning: HubOperation {
    public static let name = "completeCommissioning"
    public let structureID: String

    public init(structureID: String) {
        self.structureID = structureID
    }

    public var access: HubAccess { .member }
    public var summary: String { "add a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> [String] {
        let engine = scope.engine
        return try await engine.changingCommissioningSession { () async throws(HomeError) in
            let session = try await engine.liveSession()
            guard session.owner == scope.caller.process, session.structureID == structureID else {
                let structureName =
                    engine.model.snapshot.structures.first { $0.id == structureID }?.name ?? structureID
                throw HomeError(
                    .failedPrecondition,
                    "no commissioning session of this process is open for structure \"\(structureName)\"")
            }
            let devices = try await engine.write { store async throws(HubStoreError) in
                try await store.completeCommissioningSession(session.id)
            }
            return devices.map(\.description)
        }
    }
}
