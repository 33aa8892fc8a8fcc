import Foundation
import Testing

@testable import HomeHub

@Suite struct HubTests {
    /// Opening the hub (a second process joining an app group, say) leaves a commissioning that is still running
    /// alone, and marks one abandoned long ago as failed so it blocks nothing.
    @Test func onlyAbandonedCommissioningsAreMarkedFailed() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base)
            let running = try await hub.authority.allocateNodeID()
            let abandoned = try await hub.authority.allocateNodeID()
            let trusted = NodeRecord.Attestation(verdict: "trusted", trusted: true)
            try await hub.store.beginCommissioning(
                nodeID: running, vendorID: 0xFFF1, productID: 0x8000, attestation: trusted)
            try await hub.store.beginCommissioning(
                nodeID: abandoned, vendorID: 0xFFF1, productID: 0x8000, attestation: trusted)
            let longAgo = Int64(Date().timeIntervalSince1970) - 3600
            try hub.store.database.query(
                "UPDATE nodes SET updated_at = ? WHERE node_id = ?",
                [.integer(longAgo), .integer(Int64(bitPattern: abandoned))])

            let reopened = try await Hub(statePath: base)
            #expect(try await reopened.store.node(running)?.state == .commissioning)
            #expect(try await reopened.store.node(abandoned)?.state == .failed)
        }
    }
}
