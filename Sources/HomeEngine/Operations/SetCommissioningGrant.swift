import HomeHub
import HubWire

/// Lets another local user add (and so remove and share) devices in a structure, or takes that back; a revoked grant
/// takes effect at the user's next call.
public struct SetCommissioningGrant: HubOperation {
    public static let name = "setCommissioningGrant"
    public let uid: UInt32
    public let structureID: String
    public let granted: Bool

    public init(uid: UInt32, structureID: String, granted: Bool) {
        self.uid = uid
        self.structureID = structureID
        self.granted = granted
    }

    public var access: HubAccess { .owner }
    public var summary: String { granted ? "grant a permission" : "revoke a permission" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        try await scope.engine.changingCommissioningSession { () async throws(HomeError) in
            try await scope.engine.write { store async throws(HubStoreError) in
                if granted {
                    try await store.grantCommissioning(uid: uid, structureID: structureID)
                } else {
                    try await store.revokeCommissioning(uid: uid, structureID: structureID)
                }
            }
            return Done()
        }
    }
}
