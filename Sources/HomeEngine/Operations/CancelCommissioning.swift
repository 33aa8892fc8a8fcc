import Foundation
import HomeHub
import HubWire

/// The calling process's add-device session (or an abandoned one) cancelled: what it commissioned is asked to leave
/// the fabric. With no such session, nothing happens.
public struct CancelCommissioning: HubOperation {
    public static let name = "cancelCommissioning"

    public init() {}

    public var access: HubAccess { .member }
    public var summary: String { "cancel adding a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        let engine = scope.engine
        return await engine.changingCommissioningSession { () async in
            guard let session = try? await engine.store.commissioningSession(),
                session.owner == scope.caller.process || session.isAbandoned(now: Date())
            else { return Done() }
            await engine.removeFromFabric(commissionedIn: session)
            _ = try? await engine.write { store async throws(HubStoreError) in
                try await store.cancelCommissioningSession(session.id)
            }
            return Done()
        }
    }
}
