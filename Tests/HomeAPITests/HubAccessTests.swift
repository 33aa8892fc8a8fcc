import Foundation
import MatterDataModel
import MatterTLV
import Testing

@testable import HomeAPI
@testable import HomeEngine

/// Who may do what beyond controlling devices: the rule for generic invokes and writes (the data model's own
/// access), the rights a network door gives its clients, and a local user's grants, whichever door asks.
@Suite struct HubAccessTests {
    @Test func theDataModelsAdministrativeCommandsAndWritesAreTheOnesThatTakeTheAdministerRight() {
        typealias Credentials = OperationalCredentialsCluster
        let invoking: [(ClusterID, CommandID, Bool)] = [
            (Credentials.id, Credentials.Commands.RemoveFabric.id, true),
            (
                AdministratorCommissioningCluster.id, AdministratorCommissioningCluster.Commands.RevokeCommissioning.id,
                true
            ),
            (GroupKeyManagementCluster.id, GroupKeyManagementCluster.Commands.KeySetWrite.id, true),
            (NetworkCommissioningCluster.id, NetworkCommissioningCluster.Commands.ScanNetworks.id, true),
            // Manage by its privilege, but it answers the network's key: the whole cluster is an administrator's.
            (ThreadNetworkDirectoryCluster.id, ThreadNetworkDirectoryCluster.Commands.GetOperationalDataset.id, true),
            (OnOffCluster.id, OnOffCluster.Commands.On.id, false),
            (IdentifyCluster.id, IdentifyCluster.Commands.Identify.id, false),  // Manage
            (GroupsCluster.id, GroupsCluster.Commands.AddGroup.id, false),  // Manage
            (ClusterID(rawValue: 0xFFF1_FC01), CommandID(rawValue: 1), false),  // a vendor's, unknown here
        ]
        for (cluster, command, administrative) in invoking {
            #expect(
                AdministrativePaths.invoking(cluster: cluster, command: command) == administrative,
                "\(ClusterRegistry.standard.describe(cluster: cluster, command: command))")
        }
        let writing: [(ClusterID, AttributeID, Bool)] = [
            (AccessControlCluster.id, AccessControlCluster.Attributes.acl.id, true),
            (BasicInformationCluster.id, BasicInformationCluster.Attributes.location.id, true),  // Administer
            (BasicInformationCluster.id, BasicInformationCluster.Attributes.nodeLabel.id, false),  // Manage
            (
                OtaSoftwareUpdateRequestorCluster.id,
                OtaSoftwareUpdateRequestorCluster.Attributes.defaultOTAProviders.id, true
            ),
            (LevelControlCluster.id, LevelControlCluster.Attributes.onLevel.id, false),
        ]
        for (cluster, attribute, administrative) in writing {
            #expect(
                AdministrativePaths.writing(cluster: cluster, attribute: attribute) == administrative,
                "\(ClusterRegistry.standard.describe(cluster: cluster, attribute: attribute))")
        }
    }

    @Test func rightsAreNamedAsHomeServeTakesThemAndAnUnknownOneIsRefusedNamingTheRest() throws {
        #expect(try HubRights(parsing: "devices,firmware") == [.devices, .firmware])
        #expect(try HubRights(parsing: "all") == .all)
        #expect(try HubRights(parsing: "none") == [])
        #expect(try HubRights(parsing: " Administer , network") == [.administer, .network])
        #expect(HubRights([.devices, .network]).description == "devices,network")
        let error = #expect(throws: HomeError.self) { try HubRights(parsing: "devices,owner") }
        #expect(error?.code == .invalidArgument)
        #expect(error?.message.contains("\"owner\" is no right") == true)
        #expect(error?.message.contains("devices, administer, network, firmware") == true)
    }

    /// `home invoke` and `home write` for a user of the hub's socket (the kernel names it; here the in-process hub is
    /// told the user): what changes who controls the node is refused before anything is sent; the owner's is sent.
    @Test func anotherUserWithoutAGrantMayControlADeviceButNotAdministerItByHand() async throws {
        try await DeviceTypeControllerLiveTests.withLiveDevice(kind: .light) { home, device, _ in
            let statePath = home.context.local.hub.directory.path
            var status = stat()
            #expect(stat(statePath, &status) == 0)
            let guest = try await Home.open(
                statePath: statePath, configuration: Home.Configuration(stateDirectory: statePath),
                callerUID: status.st_uid + 1)
            let nodeID = try #require(home.context.model.snapshot.devices.keys.first)
            let window = InvokeCommand(
                nodeID: nodeID, endpoint: 0, cluster: AdministratorCommissioningCluster.id.rawValue,
                command: AdministratorCommissioningCluster.Commands.OpenBasicCommissioningWindow.id.rawValue,
                name: "OpenBasicCommissioningWindow",
                fields: TLVElement(
                    AdministratorCommissioningCluster.Commands.OpenBasicCommissioningWindow(commissioningTimeout: 180)
                        .tlvValue()),
                timedWindowMilliseconds: 5000)
            let denied = await #expect(throws: HomeError.self) { try await guest.hub.perform(window) }
            #expect(denied?.code == .permissionDenied)
            #expect(
                denied?.message.contains("user \(status.st_uid + 1) may not invoke") == true,
                "\(String(describing: denied))")
            let acl = WriteAttribute(
                nodeID: nodeID, endpoint: 0, cluster: AccessControlCluster.id.rawValue,
                attribute: AccessControlCluster.Attributes.acl.id.rawValue, name: "AccessControl.Acl",
                value: TLVElement(.array([])), timedWindowMilliseconds: nil)
            let refused = await #expect(throws: HomeError.self) { try await guest.hub.perform(acl) }
            #expect(refused?.code == .permissionDenied)
            #expect(await !device.isCommissioningWindowOpen)
            #expect(await device.fabrics.count == 1)

            // Controlling and naming it is every user's.
            let on = InvokeCommand(
                nodeID: nodeID, endpoint: 1, cluster: OnOffCluster.id.rawValue,
                command: OnOffCluster.Commands.On.id.rawValue, name: "On", fields: TLVElement(.structure([])),
                timedWindowMilliseconds: nil)
            _ = try await guest.hub.perform(on)
            let label = WriteAttribute(
                nodeID: nodeID, endpoint: 0, cluster: BasicInformationCluster.id.rawValue,
                attribute: BasicInformationCluster.Attributes.nodeLabel.id.rawValue, name: "BasicInformation.NodeLabel",
                value: TLVElement(.utf8("Porch")), timedWindowMilliseconds: nil)
            #expect(try await guest.hub.perform(label) == 0)

            // The owner's window opens.
            _ = try await home.hub.perform(window)
            #expect(await device.isCommissioningWindowOpen)
        }
    }
}
