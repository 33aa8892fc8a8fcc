import Testing

@testable import MatterSecureChannel

@Suite struct CASEResumptionTableTests {
    static func record(id: UInt8, peer: UInt64, fabricID: UInt64 = 1) -> CASEResumptionRecord {
        CASEResumptionRecord(
            resumptionID: [UInt8](repeating: id, count: 16), sharedSecret: [id], localNodeID: 0xD,
            peerNodeID: peer, fabricID: fabricID, rootPublicKey: [0x04])
    }

    @Test func aPeerKeepsOnlyItsLatestRecord() {
        var table = CASEResumptionTable()
        table.remember(Self.record(id: 1, peer: 7))
        table.remember(Self.record(id: 2, peer: 7))
        #expect(table.count == 1)
        #expect(table.record(withID: [UInt8](repeating: 1, count: 16)) == nil)
        #expect(table.record(withID: [UInt8](repeating: 2, count: 16))?.peerNodeID == 7)
    }

    @Test func eachFabricKeepsItsNewestRecordsUpToTheLimit() {
        var table = CASEResumptionTable()
        let limit = SecureChannelLimits.resumptionRecordsPerFabric
        table.remember(Self.record(id: 0xF0, peer: 1, fabricID: 2))
        for peer in 1...UInt64(limit + 2) { table.remember(Self.record(id: UInt8(peer), peer: peer)) }
        #expect(table.count == limit + 1)
        // The two oldest of the crowded fabric went; the other fabric's record stayed.
        #expect(table.record(withID: [UInt8](repeating: 1, count: 16)) == nil)
        #expect(table.record(withID: [UInt8](repeating: 2, count: 16)) == nil)
        #expect(table.record(withID: [UInt8](repeating: 3, count: 16))?.peerNodeID == 3)
        #expect(table.record(withID: [UInt8](repeating: 0xF0, count: 16))?.fabricID == 2)
    }
}
