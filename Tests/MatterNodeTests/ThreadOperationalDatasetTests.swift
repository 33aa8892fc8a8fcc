import MatterNode
import Testing

@Suite struct ThreadOperationalDatasetTests {
    @Test func theExtendedPANIDIsFoundAmongTheDatasetsTLVs() throws {
        // Active Timestamp (14), Channel (0), Extended PAN ID (2), Network Name (3): as a border router exports it.
        let dataset: [UInt8] =
            [0x0E, 0x08, 0, 0, 0, 0, 0, 1, 0, 0] + [0x00, 0x03, 0x00, 0x00, 0x0F]
            + [0x02, 0x08, 0xDE, 0xAD, 0x00, 0xBE, 0xEF, 0x00, 0xCA, 0xFE] + [0x03, 0x04] + Array("home".utf8)
        #expect(
            try ThreadOperationalDataset.extendedPANID(of: dataset) == [0xDE, 0xAD, 0x00, 0xBE, 0xEF, 0x00, 0xCA, 0xFE])
    }

    @Test func aDatasetThatCannotNameItsNetworkIsRefusedSayingWhy() {
        let cases: [([UInt8], String)] = [
            ([], "a Thread operational dataset is 1 to 254 bytes, this one has 0"),
            ([0x00, 0x03, 0x00, 0x00, 0x0F], "the Thread operational dataset has no Extended PAN ID"),
            ([0x02, 0x08, 1, 2, 3], "the Thread operational dataset is cut short at byte 0"),
            ([0x02, 0x04, 1, 2, 3, 4], "the dataset's Extended PAN ID has 4 bytes, not 8"),
            ([UInt8](repeating: 0, count: 255), "a Thread operational dataset is 1 to 254 bytes, this one has 255"),
        ]
        for (dataset, reason) in cases {
            #expect(throws: ThreadOperationalDataset.Malformed(description: reason)) {
                try ThreadOperationalDataset.extendedPANID(of: dataset)
            }
        }
    }
}
