import HomeHub
import HubWire

/// Removes a node from the home, after asking it to leave the fabric; `structureID` is its device's, for the
/// permission.
public struct Decommission: HubOperation {
    public static let name = "decommission"
    public let nodeID: UInt64
    public let structureID: String

    public init(nodeID: UInt64, structureID: String) {
        self.nodeID = nodeID
        self.structureID = structureID
    }

    /// Removed from the home; whether it also left the hub's fabric.
    public struct Outcome: Codable, Sendable, Hashable {
        /// Why the node did not leave the fabric, when it did not.
        public let fabricRemovalFailure: String?
    }

    public var access: HubAccess { .deviceAdministrator(structureID: structureID) }
    public var summary: String { "remove a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Outcome {
        let engine = scope.engine
        return try await engine.changingCommissioningSession { () async throws(HomeError) in
            await engine.live.forget(nodeID)
            var fabricRemovalFailure: String?
            do {
                try await engine.hub.removeFromFabric(nodeID, interfaces: engine.commissioning.interfaces)
            } catch {
                fabricRemovalFailure = "\(error)"
            }
            try await engine.write { store async throws(HubStoreError) in try await store.deleteNode(nodeID) }
            return Outcome(fabricRemovalFailure: fabricRemovalFailure)
        }
    }
}
