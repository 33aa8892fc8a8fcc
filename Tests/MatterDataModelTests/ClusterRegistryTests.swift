import MatterDataModel
import Testing

@Suite struct ClusterRegistryTests {
    @Test func namesPathsForPeople() {
        let registry = ClusterRegistry.standard
        #expect(registry.describe(cluster: OnOffCluster.id, command: OnOffCluster.Commands.Toggle.id) == "OnOff.Toggle")
        #expect(registry.describe(cluster: 0x0008, attribute: 0x0000) == "LevelControl.CurrentLevel")
        #expect(registry.describe(cluster: 0x0028, event: 0x00) == "BasicInformation.StartUp")
        #expect(registry[0x0030]?.name == "GeneralCommissioning")
    }

    @Test func unknownPartsShowAsHex() {
        let registry = ClusterRegistry.standard
        #expect(registry.describe(cluster: 0xFFF1_FC99, command: 0x02) == "0xFFF1FC99.0x0002")
        #expect(registry.describe(cluster: 0x0006, command: 0x7F) == "OnOff.0x007F")
    }

    @Test func aLaterEntryReplacesAnEarlierOne() {
        let replacement = ClusterInfo(
            id: 0x0006, name: "Switchy", revision: 1, attributes: [:], acceptedCommands: [:],
            generatedCommands: [:], events: [:])
        #expect(ClusterRegistry(MatterClusters.all + [replacement]).describe(cluster: 0x0006) == "Switchy")
    }
}
