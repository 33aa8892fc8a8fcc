import HomeRecords
import MatterDataModel
import MatterInteraction
import Testing

@testable import HomeHub

struct AttributeDefinitionInteractionTests {
    @Test func aStandardAttributeIsNamedByTheRegistryAndAddressedByItsIDs() {
        let vendorName = BasicInformationCluster.Attributes.vendorName
        #expect(vendorName.qualifiedName == "BasicInformation.VendorName")
        #expect(vendorName.path(endpoint: 0) == AttributePathIB(endpoint: 0, cluster: 0x0028, attribute: 0x0001))
        #expect(
            DescriptorCluster.Attributes.partsList.path(endpoint: nil)
                == AttributePathIB(cluster: 0x001D, attribute: 0x0003))
    }

    @Test func anAttributeOfAClusterTheRegistryLacksKeepsItsOwnName() {
        let gear = AttributeDefinition<UInt8>(cluster: 0xFFF1_FC01, id: 0x0002, name: "Gear")
        #expect(gear.qualifiedName == "0xFFF1FC01.Gear")
        #expect(gear.path(endpoint: 1) == AttributePathIB(endpoint: 1, cluster: 0xFFF1_FC01, attribute: 0x0002))
    }
}
