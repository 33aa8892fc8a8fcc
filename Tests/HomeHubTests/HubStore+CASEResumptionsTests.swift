import HomeRecords
import MatterSecureChannel
import Testing

@testable import HomeHub

@Suite struct HubStoreCASEResumptionsTests {
    static let nodeID: UInt64 = 0xCD55_44AA_7B13_EF14

    static func record(id: UInt8, peer: UInt64 = nodeID) -> CASEResumptionRecord {
        CASEResumptionRecord(
            resumptionID: [UInt8](repeating: id, count: 16), sharedSecret: [UInt8](repeating: 0x5A ^ id, count: 32),
            localNodeID: 0xFFFF_FFEF_0000_0001, peerNodeID: peer, fabricID: 0x2906_C908_D115_D362,
            rootPublicKey: [0x04] + [UInt8](repeating: 0x11, count: 64))
    }

    /// A restarted hub (another connection, nothing in memory) reads the record its last session left; the newest
    /// replaces the one before; the record goes with its node; a record for a node the store does not hold is dropped.
    @Test func theLastRecordOutlivesTheProcessAndGoesWithItsNode() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: Self.nodeID, vendorID: 0xFFF1, productID: 0x8001, attestation: HubStoreTests.trusted)
            #expect(await store.caseResumption(of: Self.nodeID) == nil)
            store.saveCASEResumption(Self.record(id: 1))
            store.saveCASEResumption(Self.record(id: 2))
            store.saveCASEResumption(Self.record(id: 3, peer: 0x99))
            #expect(await store.caseResumption(of: Self.nodeID) == Self.record(id: 2))

            let restarted = try await HubStore(path: base + "/hub.sqlite")
            #expect(await restarted.caseResumption(of: Self.nodeID) == Self.record(id: 2))
            #expect(await restarted.caseResumption(of: 0x99) == nil)

            try await restarted.deleteNode(Self.nodeID)
            #expect(try store.database.query("SELECT * FROM case_resumptions").isEmpty)
        }
    }

    /// A damaged row is no record: the node is reached by the full CASE, which writes a good one.
    @Test func aDamagedRecordIsNoRecord() async throws {
        try await withTemporaryDirectory { base in
            let store = try await HubStore(path: base + "/hub.sqlite")
            try await store.beginCommissioning(
                nodeID: Self.nodeID, vendorID: 0xFFF1, productID: 0x8001, attestation: HubStoreTests.trusted)
            store.saveCASEResumption(Self.record(id: 1))
            #expect(await store.caseResumption(of: Self.nodeID) == Self.record(id: 1))
            try store.database.execute("UPDATE case_resumptions SET shared_secret = 'text'")
            #expect(await store.caseResumption(of: Self.nodeID) == nil)
        }
    }

    @Test func theRecordNeverPrintsItsSecret() {
        let text = "\(Self.record(id: 1))"
        #expect(text == "CASEResumptionRecord(peer node 0xCD5544AA7B13EF14, fabric 0x2906C908D115D362)")
    }
}
