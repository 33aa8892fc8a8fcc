import Foundation
import HomeRecords
import Testing

@testable import HomeHub

@Suite struct HubTests {
    /// Opening the hub (a second process joining an app group, say) leaves a commissioning that is still running
    /// alone, and marks failed, so it blocks nothing, one whose process is gone (at once) and one that says no process
    /// (a row from before owners were recorded) once it is older than any live commissioning.
    @Test func onlyAbandonedCommissioningsAreMarkedFailed() async throws {
        try await withTemporaryDirectory { base in
            let hub = try await Hub(statePath: base)
            let trusted = NodeRecord.Attestation(verdict: "trusted", trusted: true)
            var nodes: [UInt64] = []
            for _ in 0..<4 {
                let nodeID = try await hub.authority.allocateNodeID()
                nodes.append(nodeID)
                try await hub.store.beginCommissioning(
                    nodeID: nodeID, vendorID: 0xFFF1, productID: 0x8000, attestation: trusted)
            }
            let (running, ownerGone, legacyRecent, legacyOld) = (nodes[0], nodes[1], nodes[2], nodes[3])
            // The same PID with another start time: a later process, so the owner is gone.
            try hub.store.database.query(
                "UPDATE nodes SET owner_start_ticks = 0 WHERE node_id = ?", [.integer(Int64(bitPattern: ownerGone))])
            try hub.store.database.query(
                "UPDATE nodes SET owner_pid = NULL, owner_start_ticks = NULL WHERE node_id IN (?, ?)",
                [.integer(Int64(bitPattern: legacyRecent)), .integer(Int64(bitPattern: legacyOld))])
            let longAgo = Int64(Date().timeIntervalSince1970) - 3600
            try hub.store.database.query(
                "UPDATE nodes SET updated_at = ? WHERE node_id = ?",
                [.integer(longAgo), .integer(Int64(bitPattern: legacyOld))])

            let reopened = try await Hub(statePath: base)
            #expect(try await reopened.store.node(running)?.state == .commissioning)
            #expect(try await reopened.store.node(running)?.owner == ProcessIdentity.current())
            #expect(try await reopened.store.node(ownerGone)?.state == .failed)
            #expect(try await reopened.store.node(legacyRecent)?.state == .commissioning)
            #expect(try await reopened.store.node(legacyOld)?.state == .failed)
        }
    }
}
