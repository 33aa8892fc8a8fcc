import MatterDataModel
import Testing

@testable import MatterDevice

struct BridgeChangesTests {
    static let uniqueID = "BRIDGE"

    @Test func addedDevicesBecomePartsOfTheAggregatorAndRetiredEndpointsLeaveEveryPartsList() {
        let changes = BridgeChanges(added: [BridgedDevice(endpoint: 5, label: "Shed light")], retired: [3, 4])
        let endpoints = changes.applied(to: DeviceKind.bridge.applicationEndpoints(), bridgeUniqueID: Self.uniqueID)
        #expect(endpoints.map(\.id) == [1, 2, 5])
        #expect(endpoints.first { $0.id == 1 }?.parts == [2, 5])
        let shed = endpoints.first { $0.id == 5 }
        #expect(shed?.deviceTypes.map(\.id) == [MatterDeviceTypes.onOffLight.id, MatterDeviceTypes.bridgedNode.id])
        #expect(
            shed?.clusters.map(\.id) == [
                BridgedDeviceBasicInformationCluster.id.rawValue, IdentifyCluster.id.rawValue,
                GroupsCluster.id.rawValue, OnOffCluster.id.rawValue,
            ])
    }

    @Test func withoutAnAggregatorAddedDevicesHaveNowhereToGo() {
        let changes = BridgeChanges(added: [BridgedDevice(endpoint: 2, label: "Shed light")])
        #expect(
            changes.applied(to: DeviceKind.light.applicationEndpoints(), bridgeUniqueID: Self.uniqueID).map(\.id) == [1]
        )
    }

    @Test func theNextEndpointIsPastEveryEndpointThatIsOrWas() {
        #expect(BridgeChanges().nextEndpoint(after: [0, 1, 2, 3]) == 4)
        #expect(BridgeChanges(retired: [7, 4]).nextEndpoint(after: [0, 1, 2, 3]) == 8)
        #expect(BridgeChanges(retired: [0xFFFD]).nextEndpoint(after: [0, 1]) == 0xFFFE)
        #expect(BridgeChanges(retired: [0xFFFE]).nextEndpoint(after: [0, 1]) == nil)
    }
}
