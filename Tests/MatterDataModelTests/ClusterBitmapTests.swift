import MatterDataModel
import MatterTLV
import Testing

@Suite struct ClusterBitmapTests {
    @Test func bitsThisCodeDoesNotNameAreKept() throws {
        let features = try OnOffCluster.Feature(tlv: TLVElement(.unsigned(0x8000_0001)))
        #expect(features.contains(.lighting) && !features.contains(.offOnly))
        #expect(features.tlvValue() == .unsigned(0x8000_0001))
    }

    @Test func setsCombineToTheSpecBits() {
        let features: ColorControlCluster.Feature = [.hueAndSaturation, .colorTemperature]
        #expect(features.rawValue == 0x11)
        #expect(LevelControlCluster.OptionsBitmap.coupleColorTempToLevel.rawValue == 0x2)
    }
}
