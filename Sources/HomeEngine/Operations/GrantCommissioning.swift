import HomeHub
import HubWire

/// Lets another local user add (and so remove and share) devices in a structure.
public struct GrantCommissioning: HubOperation {
    public static let name = "grantCommissioning"
    public let uid: UInt32
    public let structureID: String

    public init(uid: UInt32, structureID: String) {
        self.uid = uid
        self.structureID = structureID
    }

    public var access: HubAccess { .owner }
    public var summary: String { "grant a permission" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        try await scope.engine.changingCommissioningSession { () async throws(HomeError) in
            try await scope.engine.write { store async throws(HubStoreError) in
                try await store.grantCommissioning(uid: uid, structureID: structureID)
            }
            return Done()
        }
    }
}
