import MatterDataModel
import MatterInteraction
import Testing

@testable import HomeCommandLine

@Suite struct AttributeNameTests {
    @Test func resolvesClusterAndAttributeNamesIgnoringCase() throws {
        let onOff = try #require(AttributeName("OnOff.OnOff"))
        #expect(onOff.cluster == 0x0006 && onOff.attribute == 0x0000)
        let level = try #require(AttributeName("levelcontrol.currentlevel"))
        #expect(level.cluster == 0x0008 && level.attribute == 0x0000)
        #expect(level.description == "LevelControl.CurrentLevel")
        let vendorName = try #require(AttributeName("BasicInformation.VendorName"))
        #expect(vendorName.cluster == 0x0028 && vendorName.attribute == 0x0001)
        let accepted = try #require(AttributeName("OnOff.AcceptedCommandList"))
        #expect(accepted.attribute == 0xFFF9)
    }

    @Test func refusesWhatIsNotOneClusterAndOneOfItsAttributes() {
        for text in ["", "OnOff", "OnOff.", ".OnOff", "OnOff.OnOff.OnOff", "NoCluster.OnOff", "OnOff.CurrentLevel"] {
            #expect(AttributeName(text) == nil, "\(text)")
        }
    }

    @Test func describesCachedPathsWithHexForUnknownParts() {
        #expect(
            AttributeName.describe(ConcreteAttributePath(endpoint: 1, cluster: 0x0006, attribute: 0x4001))
                == "OnOff.OnTime")
        #expect(
            AttributeName.describe(ConcreteAttributePath(endpoint: 1, cluster: 0x0006, attribute: 0x7777))
                == "OnOff.0x7777")
    }
}
