import MatterDataModel
import Testing

/// The generated registry of standard clusters.
@Suite struct MatterClustersTests {
    @Test func listsEveryGeneratedClusterOnceInIDOrder() {
        let ids = MatterClusters.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids == ids.sorted())
        #expect(
            ids.contains(OnOffCluster.id) && ids.contains(DoorLockCluster.id)
                && ids.contains(GeneralCommissioningCluster.id))
        #expect(MatterClusters.all.first { $0.id == 0x0006 }?.name == "OnOff")
    }

    @Test func everyClusterHasTheGlobalAttributes() {
        let globals: [AttributeID] = [
            .generatedCommandList, .acceptedCommandList, .attributeList, .featureMap, .clusterRevision,
        ]
        for cluster in MatterClusters.all {
            #expect(globals.allSatisfy { cluster.attributes[$0] != nil }, "\(cluster.name)")
        }
        #expect(AttributeID.clusterRevision == 0xFFFD && AttributeID.featureMap == 0xFFFC)
    }

    @Test func infoCarriesCommandsResponsesAndEvents() {
        let groups = GroupsCluster.info
        #expect(groups.acceptedCommands[0x00] == "AddGroup" && groups.generatedCommands[0x00] == "AddGroupResponse")
        #expect(BasicInformationCluster.info.events[0x00] == "StartUp")
        #expect(BasicInformationCluster.Events.StartUp.priority == .critical)
        #expect(BasicInformationCluster.info.revision == BasicInformationCluster.revision)
    }
}
