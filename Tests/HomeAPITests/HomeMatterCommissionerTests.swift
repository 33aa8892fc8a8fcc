import Foundation
import HomeHub
import HomeRecords
import MatterDevice
import MatterPlatform
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

@Suite struct HomeMatterCommissionerTests {
    @Test("construction fails when the app group container does not exist, or holds no hub state")
    func appGroupContainer() async throws {
        try await withTemporaryDirectory { directory in
            let environment = ["XDG_DATA_HOME": directory]
            let absent = #expect(throws: HomeError.self) {
                try HomeMatterCommissioner(appGroup: "group.example.absent", environment: environment)
            }
            #expect(absent?.code == .notFound)
            try FileManager.default.createDirectory(
                atPath: directory + "/swift-home/app-groups/group.example.empty", withIntermediateDirectories: true)
            let empty = #expect(throws: HomeError.self) {
                try HomeMatterCommissioner(appGroup: "group.example.empty", environment: environment)
            }
            #expect(empty?.code == .failedPrecondition)
            #expect(empty?.message.contains("never configured") == true)
            let invalid = #expect(throws: HomeError.self) {
                try HomeMatterCommissioner(appGroup: "../escape", environment: environment)
            }
            #expect(invalid?.code == .invalidArgument)
        }
    }

    @Test(
        "the open session's state is kept owner-only in the state directory: a commissioner made from the app group lists its rooms before it ever reached the hub, and the state goes when the session closes"
    )
    func sessionState() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            let path = fixture.statePath + "/" + CommissioningSessionState.fileName
            _ = try await fixture.home.createRoom(name: "Hall")
            #expect(!FileManager.default.fileExists(atPath: path))
            try await structure.prepareForMatterCommissioning()
            let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
            #expect(mode == 0o600)

            // The helper's app group container is the home's state directory.
            let groups = directory + "/xdg/swift-home/app-groups"
            try FileManager.default.createDirectory(atPath: groups, withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(
                atPath: groups + "/group.example.home", withDestinationPath: fixture.statePath)
            let helper = try HomeMatterCommissioner(
                appGroup: "group.example.home", environment: ["XDG_DATA_HOME": directory + "/xdg"])
            #expect(try helper.fetchRooms() == [MatterAddDeviceRequest.Room(displayName: "Hall")])

            try await fixture.commissioner.commissionMatterDevice(onboardingPayload: try fixture.qrCode)
            let added = try structure.completeMatterCommissioning()
            #expect(added.count == 1)
            let again = #expect(throws: HomeError.self) { try structure.completeMatterCommissioning() }
            #expect(again?.code == .failedPrecondition)
            await structure.context.settled()
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(try await fixture.home.context.store.commissioningSession() == nil)
            #expect(throws: HomeError.self) { try helper.fetchRooms() }
            await fixture.device.shutdown()
        }
    }

    @Test("every call checks that a prepared session is open")
    func requiresSession() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let commissioner = fixture.commissioner
            let commission = await #expect(throws: HomeError.self) {
                try await commissioner.commissionMatterDevice(onboardingPayload: try fixture.qrCode)
            }
            #expect(commission?.code == .failedPrecondition)
            #expect(throws: HomeError.self) { try commissioner.fetchRooms() }
            let configure = await #expect(throws: HomeError.self) {
                try await commissioner.configure(deviceName: "Lamp", roomName: "Hall")
            }
            #expect(configure?.code == .failedPrecondition)
            await commissioner.configureMatterDevice(deviceName: "Lamp", roomName: "Hall")
            #expect(try await fixture.home.rooms().list().isEmpty)
            #expect(try await fixture.storedNodeIDs().isEmpty)
            await fixture.device.shutdown()
        }
    }

    @Test(
        "a bad payload is invalidArgument; a wrong passcode is unauthenticated, changes nothing, and the next attempt succeeds"
    )
    func failuresLeaveNothing() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            let commissioner = fixture.commissioner
            try await structure.prepareForMatterCommissioning()
            let bad = await #expect(throws: HomeError.self) {
                try await commissioner.commissionMatterDevice(onboardingPayload: "MT:NOT-A-CODE")
            }
            #expect(bad?.code == .invalidArgument)
            var wrong = fixture.device.setupPayload
            wrong.passcode = 20202022
            let refused = await #expect(throws: HomeError.self) {
                try await commissioner.commissionMatterDevice(onboardingPayload: try wrong.qrCode())
            }
            #expect(refused?.code == .unauthenticated)
            #expect(refused?.message.contains("PASE session failed: wrong passcode") == true)
            #expect(try await fixture.storedNodeIDs().isEmpty)
            #expect(try await fixture.home.context.store.commissioningSession()?.nodeIDs == [])
            try await commissioner.commissionMatterDevice(onboardingPayload: try fixture.qrCode)
            let named = try await fixture.home.devices().list().map(\.name)
            await commissioner.configureMatterDevice(deviceName: "  ", roomName: "Hall")
            #expect(try await fixture.home.devices().list().map(\.name) == named, "an empty name changes nothing")
            #expect(try await fixture.home.rooms().list().isEmpty)
            // The documentation's optional room: nil names the device and leaves it in no room.
            let chosenRoom: MatterAddDeviceRequest.Room? = nil
            await commissioner.configureMatterDevice(deviceName: "Lamp", roomName: chosenRoom?.displayName)
            #expect(try await fixture.home.devices().list().map(\.roomID) == [nil])
            #expect(try await fixture.home.rooms().list().isEmpty)
            await commissioner.configureMatterDevice(deviceName: "Lamp", roomName: "Hall")
            #expect(try await fixture.home.devices().list().map(\.name) == ["Lamp"])
            #expect(try commissioner.fetchRooms() == [MatterAddDeviceRequest.Room(displayName: "Hall")])
            #expect(try structure.completeMatterCommissioning().count == 1)
            await fixture.device.shutdown()
        }
    }
    @Test("a device that fails attestation is permissionDenied, naming the step, and leaves nothing stored")
    func attestationRefused() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            // Trust another virtual device's development PAA instead of this one's.
            let strangerStore = DeviceStore(directory: directory + "/stranger")
            let stranger = try VirtualDevice(
                store: strangerStore,
                state: try strangerStore.loadOrCreate(DeviceSettings(passcode: 20202021, discriminator: 1)),
                port: 0, log: { _ in })
            #expect(stranger.attestation.paa != fixture.device.attestation.paa)
            try Data(stranger.attestation.paa).write(
                to: URL(fileURLWithPath: fixture.statePath + "/paa/development-paa.der"))
            let structure = try await fixture.structure()
            try await structure.prepareForMatterCommissioning()
            let error = await #expect(throws: HomeError.self) {
                try await fixture.commissioner.commissionMatterDevice(onboardingPayload: try fixture.qrCode)
            }
            #expect(error?.code == .permissionDenied)
            #expect(error?.message.contains("device attestation failed") == true)
            #expect(try await fixture.storedNodeIDs().isEmpty)
            #expect(await fixture.device.fabrics.isEmpty)
            structure.cancelMatterCommissioning()
            await structure.context.settled()
            await fixture.device.shutdown()
        }
    }

    @Test("a device that never answers is deadlineExceeded, naming the step")
    func deviceSilent() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let payload = try fixture.qrCode
            await fixture.device.shutdown()
            // Its port held by a socket that answers nothing: freed, another test's device could take it and answer
            // (once seen: BUSY from a device being commissioned by its own test).
            let silent = try UDPSocket(family: .ipv4)
            try silent.bind(to: fixture.address)
            defer { withExtendedLifetime(silent) {} }
            let structure = try await fixture.structure()
            try await structure.prepareForMatterCommissioning()
            let error = await #expect(throws: HomeError.self) {
                try await fixture.commissioner.commissionMatterDevice(onboardingPayload: payload)
            }
            #expect(error?.code == .deadlineExceeded)
            #expect(error?.message.hasPrefix("adding the device: PASE session failed") == true)
            #expect(try await fixture.storedNodeIDs().isEmpty)
            structure.cancelMatterCommissioning()
            await structure.context.settled()
        }
    }
}
