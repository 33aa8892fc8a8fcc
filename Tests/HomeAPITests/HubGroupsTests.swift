import Foundation
import HomeHub
import HomeRecords
import MatterSecureChannel
import Testing

@testable import HomeEngine

/// The hub's rules for the home's groups that need no device: what a node should hold, when to look again, and a
/// room's name as a group's.
@Suite struct HubGroupsTests {
    static let keySet = try! GroupKeySet(
        id: 1, policy: .trustFirst,
        epochKeys: [GroupKeySet.EpochKey(key: [UInt8](repeating: 9, count: 16), startTime: 5)])

    /// What a node holds is told apart by its key set's start and each endpoint's group: a moved device or a new key
    /// means it must be given its groups again.
    @Test func aPlansFingerprintChangesWithItsKeyAndItsEndpointsGroups() throws {
        let plan = HubGroups.Plan(
            endpoints: [2: [7, 9], 1: [3]], keySet: Self.keySet, names: [3: "Kitchen", 7: "Downstairs", 9: "Corner"])
        #expect(plan.fingerprint == "k1@5|1=3;2=7,9|3=Kitchen;7=Downstairs;9=Corner")
        #expect(plan.groupIDs == [3, 7, 9])
        var renamed = plan
        renamed.names[3] = "Cuisine"
        #expect(renamed.fingerprint != plan.fingerprint)
        var moved = plan
        moved.endpoints[2] = [3, 9]
        #expect(moved.fingerprint != plan.fingerprint)
        var rekeyed = plan
        rekeyed.keySet = try GroupKeySet(
            id: 1, policy: .trustFirst,
            epochKeys: [GroupKeySet.EpochKey(key: [UInt8](repeating: 9, count: 16), startTime: 6)])
        #expect(rekeyed.fingerprint != plan.fingerprint)
    }

    /// A node is counted in a group by what it was given, under the current key: one being given a change still hears
    /// the groups it had, and would act twice on a group message and a unicast.
    @Test func aNodeHoldsWhatItWasGivenUnderTheCurrentKey() {
        let plan = HubGroups.Plan(endpoints: [1: [3]], keySet: Self.keySet, names: [3: "Kitchen"])
        #expect(plan.holds(3, on: 1, given: plan.fingerprint))
        // Given before it moved from group 5 into 3: it still hears 5, not 3.
        #expect(plan.holds(5, on: 1, given: "k1@5|1=5|5=Hall"))
        #expect(!plan.holds(3, on: 1, given: "k1@5|1=5|5=Hall"))
        #expect(!plan.holds(3, on: 2, given: plan.fingerprint))
        // Under another key, or never given anything: it hears nothing of the home's.
        #expect(!plan.holds(3, on: 1, given: "k1@4|1=3|3=Kitchen"))
        #expect(!plan.holds(3, on: 1, given: nil))
    }

    @Test func aNodeIsLookedAtWhenItsDevicesMoveOrItComesBack() {
        var snapshot = HomeModel.Snapshot()
        snapshot.devices = [1: [], 2: [], 3: []]
        let device = DeviceID(nodeID: 2, endpoint: 1)
        #expect(HubGroups.affectedNodes([.deviceMoved(device)], in: snapshot) == [2])
        #expect(HubGroups.affectedNodes([.connectivity(3, .online)], in: snapshot) == [3])
        #expect(HubGroups.affectedNodes([.connectivity(3, .connecting), .deviceRenamed(device)], in: snapshot).isEmpty)
        // A room gone takes its group from every node; a room renamed renames its group on them.
        #expect(HubGroups.affectedNodes([.roomRemoved("R1")], in: snapshot) == [1, 2, 3])
        #expect(HubGroups.affectedNodes([.roomRenamed("R1")], in: snapshot) == [1, 2, 3])
    }

    /// Matter's group names are at most 16 bytes: a longer room name is cut there, never inside a character.
    @Test func aRoomsNameIsCutToSixteenBytesOnACharacter() {
        #expect(HubGroups.groupName("Kitchen") == "Kitchen")
        #expect(HubGroups.groupName("Großes Wohnzimmer oben") == "Großes Wohnzimm")
        #expect(HubGroups.groupName("Küche 🍳🍳🍳") == "Küche 🍳🍳")
        #expect(HubGroups.groupName("Küche 🍳🍳🍳").utf8.count <= 16)
    }
}
