import MatterTLV
import MatterTestSupport
import Testing

@testable import MatterInteraction

@Suite struct AttributePathIBTests {
    @Test func aConcretePathIsAListOfItsParts() {
        let path = AttributePathIB(endpoint: 1, cluster: 6, attribute: 0)
        #expect(TLVWriter.encode(TLVElement(path.tlvValue())) == hex("17 24 02 01 24 03 06 24 04 00 18"))
    }

    @Test func wildcardsLeaveTheirFieldsOut() {
        #expect(TLVWriter.encode(TLVElement(AttributePathIB().tlvValue())) == hex("17 18"))
        #expect(TLVWriter.encode(TLVElement(AttributePathIB(cluster: 0x0101).tlvValue())) == hex("17 25 03 01 01 18"))
    }

    @Test func aNullListIndexMeansAppend() throws {
        let path = AttributePathIB(endpoint: 0, cluster: 0x1F, attribute: 0, listIndex: .append)
        let bytes = TLVWriter.encode(TLVElement(path.tlvValue()))
        #expect(bytes == hex("17 24 02 00 24 03 1f 24 04 00 34 05 18"))
        #expect(try AttributePathIB(tlv: TLVReader.decode(bytes)) == path)
        #expect(try AttributePathIB(tlv: TLVReader.decode(hex("17 24 05 03 18"))).listIndex == .item(3))
    }

    @Test func everyPartRoundTrips() throws {
        let path = AttributePathIB(
            enableTagCompression: false, node: 0x1122_3344_5566_7788, endpoint: 0xFFFE, cluster: 0xFFF1_FC00,
            attribute: 0xFFFC, listIndex: .item(65535))
        #expect(try AttributePathIB(tlv: TLVReader.decode(TLVWriter.encode(TLVElement(path.tlvValue())))) == path)
    }

    @Test func aStructureIsNotAPath() {
        // The same members in a structure (0x15) instead of a list (0x17).
        #expect(throws: TLVError.typeMismatch(expected: .list, found: .structure)) {
            try AttributePathIB(tlv: TLVReader.decode(hex("15 24 02 01 24 03 06 24 04 00 18")))
        }
    }

    @Test func anOversizedEndpointIsRejected() {
        #expect(throws: TLVError.inField(2, .integerOutOfRange(value: "65536", type: "UInt16"))) {
            try AttributePathIB(tlv: TLVReader.decode(hex("17 26 02 00 00 01 00 18")))
        }
    }

    @Test func describesWildcardsAsStars() {
        #expect(AttributePathIB(cluster: 6).description == "endpoint *, cluster 0x0006, attribute *")
        #expect(
            AttributePathIB(endpoint: 1, cluster: 0xFFF1_0001, attribute: 2, listIndex: .append).description
                == "endpoint 1, cluster 0xFFF10001, attribute 0x0002, appended item")
    }
}
