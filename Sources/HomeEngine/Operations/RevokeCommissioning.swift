import HomeHub
import HubWire

/// Takes back what `GrantCommissioning` gave; it takes effect at the user's next call.
public struct RevokeCommissioning: HubOperation {
    public static let name = "revokeCommissioning"
    public let uid: UInt32
    public let structureID: String

    public init(uid: UInt32, structureID: String) {
        self.uid = uid
        self.structureID = structureID
    }

    public var access: HubAccess { .owner }
    public var summary: String { "revoke a permission" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        try await scope.engine.changingCommissioningSession { () async throws(HomeError) in
            try await scope.engine.write { store async throws(HubStoreError) in
                try await store.revokeCommissioning(uid: uid, structureID: structureID)
            }
            return Done()
        }
    }
}
