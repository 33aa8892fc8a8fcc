import HomeHub
import HubWire

/// Removes a node from the home, after asking it to leave the fabric. Who may is read from the structures its
/// devices are in, never from what the caller says.
public struct Decommission: HubOperation {
    public static let name = "decommission"
    public let nodeID: UInt64

    public init(nodeID: UInt64) {
        self.nodeID = nodeID
    }

    /// Removed from the home; whether it also left the hub's fabric.
    public struct Outcome: Codable, Sendable, Hashable {
        /// Why the node did not leave the fabric, when it did not.
        public let fabricRemovalFailure: String?
    }

    public var access: HubAccess { .nodeRight(.devices, nodeID: nodeID) }
    public var summary: String { "remove a device" }

    public func run(in scope: HubOperationScope) async throws(HomeError) -> Outcome {
        let engine = scope.engine
        return try await engine.changingCommissioningSession { () async throws(HomeError) in
            // A node that was given the home's group key keeps it, fabric or not (a device need not forget what it
            // is told to): the key is replaced once it is gone.
            let heldGroupKey = ((try? await engine.store.groupsGiven(to: nodeID)) ?? nil) != nil
            await engine.live.forget(nodeID)
            var fabricRemovalFailure: String?
            do {
                try await engine.hub.removeFromFabric(nodeID, interfaces: engine.commissioning.interfaces)
            } catch {
                fabricRemovalFailure = "\(error)"
            }
            try await engine.write { store async throws(HubStoreError) in try await store.deleteNode(nodeID) }
            if heldGroupKey {
                do throws(HomeError) {
                    try await engine.groups.rekey()
                } catch {
                    scope.progress(
                        .note(
                            "the home's group key could not be replaced (\(error.message)): "
                                + "the removed device could still reach the home's groups until it is"))
                }
            }
            return Outcome(fabricRemovalFailure: fabricRemovalFailure)
        }
    }
}
