import Foundation
import HomeHub
import HomeRecords
import HubWire

/// Opens the add-device session for a structure, owned by the calling process. An abandoned session (its process
/// gone, or past its deadline) is undone first.
public struct PrepareCommissioning: HubOperation {
    public static let name = "prepareCommissioning"
    public let structureID: String

    public init(structureID: String) {
        self.structureID = structureID
    }

    public var access: HubAccess { .right(.devices, structureID: structureID) }
    public var summary: String { "add a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Done {
        let engine = scope.engine
        return try await engine.changingCommissioningSession { () async throws(HomeError) in
            do {
                try await engine.hub.checkOnline(interfaces: engine.commissioning.interfaces)
            } catch {
                throw HomeError(.unavailable, "the hub cannot reach devices: \(error)")
            }
            guard let owner = scope.caller.process else {
                throw HomeError(.internal, "cannot read the calling process's start time from /proc")
            }
            if let abandoned = try? await engine.store.commissioningSession(), abandoned.isAbandoned(now: Date()) {
                await engine.removeFromFabric(commissionedIn: abandoned)
            }
            let now = Date()
            let session = CommissioningSessionRecord(
                id: UUID().uuidString, structureID: structureID, owner: owner,
                deadline: now.addingTimeInterval(Double(HubEngineTiming.commissioningSession.components.seconds)),
                interfaces: engine.commissioning.interfaces, paaTrustStore: engine.commissioning.paaTrustStore)
            try await engine.write { store async throws(HubStoreError) in
                try await store.openCommissioningSession(session, now: now)
            }
            return Done()
        }
    }
}
