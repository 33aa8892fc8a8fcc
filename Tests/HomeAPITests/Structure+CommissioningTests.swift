import Foundation
import HomeRecords
import MatterDevice
import MatterNode
import MatterPlatform
import MatterTestSupport
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HomeHub
@testable import HubWire

@Suite("Structure: prepare, complete and cancel an add-device session")
struct StructureCommissioningTests {
    @Test("the whole flow adds the virtual device, named and in its room, and complete returns its ID")
    func addsDevice() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            try await structure.prepareForMatterCommissioning()
            try await fixture.request(structure, payload: try fixture.qrCode)
                .perform(
                    handler: fixture.commissioner, interaction: PresetInteraction(room: "Kitchen", name: "Desk lamp"))
            let added = try structure.completeMatterCommissioning()
            let devices = try await fixture.home.devices().list()
            #expect(Set(devices.map(\.id)) == added)
            #expect(added.count == 1)
            let device = try #require(devices.first)
            #expect(device.name == "Desk lamp")
            let kitchen = try #require(try await fixture.home.rooms().list().first { $0.name == "Kitchen" })
            #expect(device.roomID == kitchen.id)
            #expect(kitchen.structureID == structure.id)
            // The session is closed: completing again has nothing to complete.
            #expect(throws: HomeError.self) { try structure.completeMatterCommissioning() }
            await fixture.device.shutdown()
        }
    }

    @Test("a second prepare while this process's session is open fails with failedPrecondition")
    func secondPrepareSameProcess() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            try await structure.prepareForMatterCommissioning()
            let error = await #expect(throws: HomeError.self) { try await structure.prepareForMatterCommissioning() }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.message.contains("another commissioning session is in progress") == true)
            await fixture.device.shutdown()
        }
    }

    @Test("a session held by another live process blocks prepare; once that process is killed, prepare clears it")
    func otherProcessSessionAndKilledOwner() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            let other = try await fixture.openSessionOwnedByAnotherProcess(structure)
            let error = await #expect(throws: HomeError.self) { try await structure.prepareForMatterCommissioning() }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.message.contains("process \(other.pid)") == true)
            other.send(SIGKILL)
            _ = await other.termination()
            try await structure.prepareForMatterCommissioning()
            #expect(try await fixture.home.context.store.commissioningSession()?.owner == ProcessIdentity.current())
            await fixture.device.shutdown()
        }
    }

    @Test("a session past its deadline is cleared by the next prepare, with the node it left")
    func expiredSessionCleared() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            let store = fixture.home.context.store
            let owner = try #require(ProcessIdentity.current())
            try await store.openCommissioningSession(
                CommissioningSessionRecord(
                    id: "stale", structureID: structure.id, owner: owner, deadline: Date().addingTimeInterval(-1),
                    interfaces: [], paaTrustStore: directory), now: Date())
            try await store.beginCommissioning(
                nodeID: 0x42, vendorID: 0xFFF1, productID: 0x8000,
                attestation: .init(verdict: "test", trusted: true), session: "stale")
            try await structure.prepareForMatterCommissioning()
            #expect(try await fixture.storedNodeIDs().isEmpty)
            #expect(try await store.commissioningSession()?.id != "stale")
            await fixture.device.shutdown()
        }
    }

    @Test(
        "prepare undoes a session whose process died: the device it commissioned leaves the hub's fabric and the store",
        arguments: [false, true])
    func killedOwnerSessionUndone(diedBeforeTheFinalWrite: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            let other = try await fixture.openSessionOwnedByAnotherProcess(structure)
            try await fixture.commissioner.commissionMatterDevice(onboardingPayload: try fixture.qrCode)
            #expect(try await fixture.storedNodeIDs().count == 1)
            #expect(await fixture.device.fabrics.count == 1)
            if diedBeforeTheFinalWrite {
                // As if the process died after CommissioningComplete, before the node was written as commissioned.
                try fixture.home.context.store.database.execute("UPDATE nodes SET state = 'commissioning'")
            }
            other.send(SIGKILL)
            _ = await other.termination()

            try await structure.prepareForMatterCommissioning()
            #expect(try await fixture.storedNodeIDs().isEmpty)
            #expect(await fixture.device.fabrics.isEmpty, "the device still holds the abandoned session's fabric")
            #expect(await fixture.device.isCommissioningWindowOpen)
            await fixture.device.shutdown()
        }
    }

    @Test(
        "adding a device already on this hub fails with alreadyExists and leaves the home and the device as they were")
    func alreadyCommissioned() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            try await structure.prepareForMatterCommissioning()
            try await fixture.request(structure, payload: try fixture.qrCode)
                .perform(
                    handler: fixture.commissioner, interaction: PresetInteraction(room: "Kitchen", name: "Desk lamp"))
            _ = try structure.completeMatterCommissioning()
            await structure.context.settled()
            try await fixture.openBasicCommissioningWindow(through: fixture.home)
            let nodesBefore = try await fixture.storedNodeIDs()

            try await structure.prepareForMatterCommissioning()
            let error = await #expect(throws: HomeError.self) {
                try await fixture.commissioner.commissionMatterDevice(onboardingPayload: try fixture.qrCode)
            }
            #expect(error?.code == .alreadyExists)
            #expect(error?.message.contains("already commissioned to this hub") == true)
            structure.cancelMatterCommissioning()
            await structure.context.settled()
            #expect(try await fixture.storedNodeIDs() == nodesBefore)
            #expect(try await fixture.home.devices().list().map(\.name) == ["Desk lamp"])
            #expect(await fixture.device.fabrics.count == 1)
            await fixture.home.disconnect()
            await fixture.device.shutdown()
        }
    }

    @Test("a device whose fabric table is full fails with resourceExhausted, and nothing of the attempt is stored")
    func fabricTableFull() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            // Other hubs fill every fabric slot the device has, each opening the window again for the next.
            for index in 0..<Int(NodeConstants.supportedFabrics) {
                var configuration = Home.Configuration(
                    stateDirectory: directory + "/other\(index)", paaTrustStore: fixture.statePath + "/paa")
                configuration.commissioningAddress = fixture.address
                let other = try await Home.open(statePath: directory + "/other\(index)", configuration: configuration)
                let otherStructure = try #require(try await other.structures().list().first)
                try await otherStructure.prepareForMatterCommissioning()
                try await HomeMatterCommissioner(home: other).commissionMatterDevice(
                    onboardingPayload: try fixture.qrCode)
                _ = try otherStructure.completeMatterCommissioning()
                await otherStructure.context.settled()
                try await fixture.openBasicCommissioningWindow(through: other)
                await other.disconnect()
            }
            #expect(await fixture.device.fabrics.count == Int(NodeConstants.supportedFabrics))

            let structure = try await fixture.structure()
            try await structure.prepareForMatterCommissioning()
            let error = await #expect(throws: HomeError.self) {
                try await fixture.commissioner.commissionMatterDevice(onboardingPayload: try fixture.qrCode)
            }
            #expect(error?.code == .resourceExhausted)
            #expect(error?.message.contains("TableFull") == true)
            #expect(try await fixture.storedNodeIDs().isEmpty)
            #expect(try await fixture.home.context.store.commissioningSession()?.nodeIDs == [])
            #expect(await fixture.device.fabrics.count == Int(NodeConstants.supportedFabrics))
            structure.cancelMatterCommissioning()
            await structure.context.settled()
            await fixture.device.shutdown()
        }
    }

    @Test("prepare fails with unavailable when none of the configured interfaces is up")
    func transportDown() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory, interfaces: ["swifthome-absent0"])
            let structure = try await fixture.structure()
            let error = await #expect(throws: HomeError.self) { try await structure.prepareForMatterCommissioning() }
            #expect(error?.code == .unavailable)
            #expect(error?.message.contains("swifthome-absent0") == true)
            #expect(try await fixture.home.context.store.commissioningSession() == nil)
            await fixture.device.shutdown()
        }
    }

    @Test("another user needs a grant: permissionDenied without it, allowed with it, denied again at once when revoked")
    func permission() async throws {
        try await withTemporaryDirectory { directory in
            let owner = try await VirtualDeviceFixture.start(in: directory)
            var status = stat()
            #expect(stat(owner.statePath, &status) == 0)
            let otherUser = status.st_uid + 1
            var configuration = Home.Configuration(stateDirectory: owner.statePath)
            configuration.commissioningAddress = owner.address
            let guest = try await Home.open(
                statePath: owner.statePath, configuration: configuration, callerUID: otherUser)
            let guestStructure = try #require(try await guest.structures().list().first)
            let ownerStructure = try await owner.structure()

            let denied = await #expect(throws: HomeError.self) {
                try await guestStructure.prepareForMatterCommissioning()
            }
            #expect(denied?.code == .permissionDenied)
            // Granting is the owner's alone, whoever else may add devices.
            let notOwner = await #expect(throws: HomeError.self) {
                try await guestStructure.grantCommissioning(toUser: otherUser)
            }
            #expect(notOwner?.code == .permissionDenied)

            try await ownerStructure.grantCommissioning(toUser: otherUser)
            try await guestStructure.prepareForMatterCommissioning()
            guestStructure.cancelMatterCommissioning()
            await guestStructure.context.settled()

            try await ownerStructure.revokeCommissioning(fromUser: otherUser)
            let revoked = await #expect(throws: HomeError.self) {
                try await guestStructure.prepareForMatterCommissioning()
            }
            #expect(revoked?.code == .permissionDenied)
            await owner.device.shutdown()
        }
    }

    @Test("cancel after the device was commissioned leaves no trace in the store, and the device can be added again")
    func cancelAfterCommissioning() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            let counterBefore = try await fixture.home.context.store.changeCounter()
            try await structure.prepareForMatterCommissioning()
            let request = fixture.request(structure, payload: try fixture.qrCode)
            let interrupted = await #expect(throws: HomeError.self) {
                try await request.perform(
                    handler: FailingAfterCommissioningHandler(commissioner: fixture.commissioner),
                    interaction: PresetInteraction(room: "Kitchen", name: "Desk lamp"))
            }
            #expect(interrupted?.code == .aborted)
            #expect(try await fixture.storedNodeIDs().count == 1)
            structure.cancelMatterCommissioning()
            await structure.context.settled()
            #expect(try await fixture.storedNodeIDs().isEmpty)
            #expect(try await fixture.home.devices().list().isEmpty)
            #expect(try await fixture.home.context.store.commissioningSession() == nil)
            #expect(try await fixture.home.context.store.changeCounter() > counterBefore)
            // RemoveFabric took the device's only fabric: it is commissionable again.
            #expect(await fixture.device.isCommissioningWindowOpen)

            try await structure.prepareForMatterCommissioning()
            try await request.perform(
                handler: fixture.commissioner, interaction: PresetInteraction(room: "Kitchen", name: "Desk lamp"))
            #expect(try structure.completeMatterCommissioning().count == 1)
            #expect(try await fixture.home.devices().list().map(\.name) == ["Desk lamp"])
            await fixture.device.shutdown()
        }
    }

    @Test(
        "complete without a session, or with nothing commissioned, fails with failedPrecondition and keeps the session")
    func completeRefused() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            let noSession = #expect(throws: HomeError.self) { try structure.completeMatterCommissioning() }
            #expect(noSession?.code == .failedPrecondition)
            try await structure.prepareForMatterCommissioning()
            let nothing = #expect(throws: HomeError.self) { try structure.completeMatterCommissioning() }
            #expect(nothing?.code == .failedPrecondition)
            #expect(nothing?.message.contains("no device was commissioned") == true)
            #expect(try await fixture.home.context.store.commissioningSession() != nil)
            await fixture.device.shutdown()
        }
    }
}
