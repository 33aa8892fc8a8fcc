import MatterDataModel
import MatterTLV
import Testing

@Suite struct DataModelIdentifiersTests {
    @Test func showsFourHexDigitsOrEightWithAVendorPrefix() {
        #expect(ClusterID(rawValue: 6).description == "0x0006")
        #expect(ClusterID(rawValue: 0xFFF1_FC01).description == "0xFFF1FC01")
        #expect(AttributeID.featureMap.description == "0xFFFC")
    }

    @Test func codesAsAnUnsignedInteger() throws {
        #expect(CommandID(rawValue: 2).tlvValue() == .unsigned(2))
        #expect(
            try [AttributeID](tlv: TLVElement(.array([TLVElement(.unsigned(0)), TLVElement(.unsigned(0xFFFD))])))
                == [0x0000, .clusterRevision])
        #expect(throws: TLVError.integerOutOfRange(value: "4294967296", type: "UInt32")) {
            try EventID(tlv: TLVElement(.unsigned(1 << 32)))
        }
    }
}
