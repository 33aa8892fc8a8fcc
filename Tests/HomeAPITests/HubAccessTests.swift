import Foundation
import MatterDataModel
import MatterTLV
import MatterTestSupport
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HomeHub

/// Who may do what beyond controlling devices: the rule for generic invokes and writes (the data model's own
/// access), the rights a network door gives its clients, and a local user's grants, whichever door asks.
@Suite struct HubAccessTests {
    @Test func theDataModelsAdministrativeCommandsAndWritesAreTheOnesThatTakeMoreThanControl() {
        typealias Credentials = OperationalCredentialsCluster
        let invoking: [(ClusterID, CommandID, HubRights)] = [
            (Credentials.id, Credentials.Commands.RemoveFabric.id, .administer),
            (
                AdministratorCommissioningCluster.id, AdministratorCommissioningCluster.Commands.RevokeCommissioning.id,
                .administer
            ),
            (GroupKeyManagementCluster.id, GroupKeyManagementCluster.Commands.KeySetWrite.id, .administer),
            (NetworkCommissioningCluster.id, NetworkCommissioningCluster.Commands.ScanNetworks.id, .administer),
            // Manage by its privilege, but it answers the network's key: the whole cluster is an administrator's.
            (
                ThreadNetworkDirectoryCluster.id, ThreadNetworkDirectoryCluster.Commands.GetOperationalDataset.id,
                .administer
            ),
            (IcdManagementCluster.id, IcdManagementCluster.Commands.RegisterClient.id, .devices),
            (IcdManagementCluster.id, IcdManagementCluster.Commands.StayActiveRequest.id, []),
            (OnOffCluster.id, OnOffCluster.Commands.On.id, []),
            (OnOffCluster.id, CommandID(rawValue: 0x7F), .administer),  // one the data model does not name
            (IdentifyCluster.id, IdentifyCluster.Commands.Identify.id, []),  // Manage
            (GroupsCluster.id, GroupsCluster.Commands.AddGroup.id, []),  // Manage
            (ClusterID(rawValue: 0xFFF1_FC01), CommandID(rawValue: 1), []),  // a vendor's, unknown here
        ]
        for (cluster, command, administrative) in invoking {
            #expect(
                AdministrativePaths.invoking(cluster: cluster, command: command) == administrative,
                "\(ClusterRegistry.standard.describe(cluster: cluster, command: command))")
        }
        let writing: [(ClusterID, AttributeID, HubRights)] = [
            (AccessControlCluster.id, AccessControlCluster.Attributes.acl.id, .administer),
            (BasicInformationCluster.id, BasicInformationCluster.Attributes.location.id, .administer),
            (BasicInformationCluster.id, BasicInformationCluster.Attributes.nodeLabel.id, []),  // Manage
            (
                OtaSoftwareUpdateRequestorCluster.id,
                OtaSoftwareUpdateRequestorCluster.Attributes.defaultOTAProviders.id, .administer
            ),
            (LevelControlCluster.id, LevelControlCluster.Attributes.onLevel.id, []),
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

    /// Who may administer a node follows the structure its devices are in: moving one into another structure takes
    /// the devices right in both, so a user granted one structure cannot pull another's device into it (and then
    /// remove or share it).
    @Test func movingADeviceIntoAnotherStructureTakesTheDevicesRightInBoth() async throws {
        try await DeviceTypeControllerLiveTests.withLiveDevice(kind: .light) { home, device, _ in
            let statePath = home.context.local.hub.directory.path
            var status = stat()
            #expect(stat(statePath, &status) == 0)
            let guestUID = status.st_uid + 1
            try home.context.store.write { transaction in
                try transaction.query(
                    "INSERT INTO structures (structure_id, name, created_at) VALUES ('CABIN', 'Cabin', unixepoch())")
            }
            #expect(await eventually(within: .seconds(10)) { home.context.model.snapshot.structures.count == 2 })
            let loft = try await home.hub.perform(CreateRoom(name: "Loft", structureID: "CABIN"))
            _ = try await home.hub.perform(SetCommissioningGrant(uid: guestUID, structureID: "CABIN", granted: true))
            let guest = try await Home.open(
                statePath: statePath, configuration: Home.Configuration(stateDirectory: statePath), callerUID: guestUID)
            let lamp = try #require(home.context.model.snapshot.devices.values.first?.first)
            #expect(home.context.model.snapshot.structureID(ofRoom: lamp.roomID) != "CABIN")

            let denied = await #expect(throws: HomeError.self) {
                try await guest.hub.perform(MoveDevices([lamp.id], roomID: loft.id))
            }
            #expect(denied?.code == .permissionDenied)
            #expect(home.context.model.snapshot.devices.values.first?.first?.roomID == lamp.roomID, "not moved")
            let removal = await #expect(throws: HomeError.self) {
                try await guest.hub.perform(Decommission(nodeID: lamp.id.nodeID))
            }
            #expect(removal?.code == .permissionDenied)
            #expect(await device.fabrics.count == 1)

            // Moved there by the owner, it is the guest's to administer.
            _ = try await home.hub.perform(MoveDevices([lamp.id], roomID: loft.id))
            #expect(
                await eventually(within: .seconds(10)) {
                    home.context.model.snapshot.devices.values.first?.first?.roomID == loft.id
                })
            _ = try await guest.hub.perform(CheckCommissioningPermission(structureID: "CABIN"))
            let window = InvokeCommand(
                nodeID: lamp.id.nodeID, endpoint: 0, cluster: AdministratorCommissioningCluster.id.rawValue,
                command: AdministratorCommissioningCluster.Commands.RevokeCommissioning.id.rawValue,
                name: "RevokeCommissioning", fields: TLVElement(.structure([])), timedWindowMilliseconds: 5000)
            // Sent (the device answers its window is not open): the right holds now.
            let answer = await #expect(throws: HomeError.self) { try await guest.hub.perform(window) }
            #expect(answer?.code != .permissionDenied, "\(String(describing: answer))")
        }
    }

    /// A user granted the devices right adds devices checked against the hub's own trust store: choosing another, or
    /// accepting one that fails attestation, is the owner's (a device added over Bluetooth LE is given the home's
    /// network secrets); and another user's add-device session is not anyone's to use.
    @Test func anotherUsersDevicesAreAttestedByTheHubsTrustStoreAndItsSessionIsNotAnyones() async throws {
        try await withHome { home, _, path in
            var status = stat()
            #expect(stat(path, &status) == 0)
            let structure = try #require(home.context.model.snapshot.structures.first?.id)
            _ = try await home.hub.perform(
                SetCommissioningGrant(uid: status.st_uid + 1, structureID: structure, granted: true))
            let granted = try await Home.open(
                statePath: path, configuration: Home.Configuration(stateDirectory: path), callerUID: status.st_uid + 1)
            func commission(trustStore: String?, acceptUntrusted: Bool) -> CommissionDevice {
                CommissionDevice(
                    payload: "MT:Y.K9042C00KA0648G00", address: nil, interfaces: [], paaTrustStore: trustStore,
                    acceptUntrustedDevice: acceptUntrusted, name: nil, room: nil)
            }
            let own = await #expect(throws: HomeError.self) {
                try await granted.hub.perform(commission(trustStore: path + "/mine", acceptUntrusted: false))
            }
            #expect(own?.code == .permissionDenied)
            #expect(own?.message.contains("only the hub's owner may choose the PAA trust store") == true)
            let untrusted = await #expect(throws: HomeError.self) {
                try await granted.hub.perform(commission(trustStore: nil, acceptUntrusted: true))
            }
            #expect(untrusted?.code == .permissionDenied)
            #expect(untrusted?.message.contains("fails attestation") == true)

            // The owner's session: a user without a grant may not commission into it nor name what it added.
            _ = try await home.hub.perform(PrepareCommissioning(structureID: structure))
            let stranger = try await Home.open(
                statePath: path, configuration: Home.Configuration(stateDirectory: path), callerUID: status.st_uid + 2)
            let into = await #expect(throws: HomeError.self) {
                try await stranger.hub.perform(
                    CommissionInSession(payload: "MT:Y.K9042C00KA0648G00", deviceAddress: nil))
            }
            #expect(into?.code == .permissionDenied)
            let naming = await #expect(throws: HomeError.self) {
                try await stranger.hub.perform(ConfigureCommissioned(name: "Mine", room: nil))
            }
            #expect(naming?.code == .permissionDenied)
            _ = try await home.hub.perform(CancelCommissioning())
        }
    }
}
