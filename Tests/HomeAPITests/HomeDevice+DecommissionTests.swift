import Foundation
import HomeHub
import HomeRecords
import MatterDevice
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// Removing devices from the home, against our virtual devices on loopback. Serialized like the other live suites.
@Suite(.serialized) struct HomeDeviceDecommissionTests {
    @Test func aLightLeavesTheFabricAndTheHome() async throws {
        try await DeviceTypeControllerLiveTests.withLiveDevice(kind: .light) { home, device, _ in
            let lamp = try #require(try await home.devices().list().first)
            let onOff = try #require(await lamp.types.get(OnOffLightDeviceType.self)?.matterTraits.onOffTrait)
            #expect(try await lamp.checkDecommissionEligibility() == .eligible)
            let batches = Recorder { record in
                for try await devices in home.devices().batched() { record(devices.map(\.id)) }
            }
            #expect(await batches.values(count: 1) == [[lamp.id]])

            #expect(try await lamp.decommissionDevice() == [lamp.id])
            await batches.until { $0.last == [] }
            batches.cancel()
            #expect(batches.values.last == [])
            #expect(try await home.context.store.nodes().isEmpty)
            // The device took RemoveFabric: with no fabric left it is commissionable again.
            #expect(await device.fabrics.isEmpty)
            #expect(await device.isCommissioningWindowOpen)
            // A value kept from before is not a way back to the node: commands say it is gone.
            let gone = await #expect(throws: HomeError.self) { try await onOff.on() }
            #expect(gone?.code == .notFound)
        }
    }

    @Test func aPanelsButtonsGoTogether() async throws {
        try await DeviceTypeControllerLiveTests.withLiveDevice(kind: .switchPanel) { home, _, _ in
            let buttons = try await home.devices().list()
            #expect(buttons.count == 4)
            let first = try #require(buttons.min { $0.id < $1.id })
            let ids = Set(buttons.map(\.id))
            #expect(
                try await first.checkDecommissionEligibility()
                    == .eligibleWithSideEffects(.multipleAffectedDevices(deviceIDs: ids)))
            #expect(try await first.decommissionDevice() == ids)
            #expect(try await home.devices().list().isEmpty)
        }
    }

    @Test func aBridgedDeviceIsRefusedAndTheBridgeTakesItsDevicesAlong() async throws {
        try await DeviceTypeControllerLiveTests.withLiveDevice(kind: .bridge) { home, device, _ in
            let bridged = try await home.devices().list()
            #expect(bridged.count == 2)
            let one = try #require(bridged.first)
            #expect(try await one.checkDecommissionEligibility() == .ineligible(reason: .bridgedDevice))
            let refused = await #expect(throws: HomeError.self) { try await one.decommissionDevice() }
            #expect(refused?.code == .failedPrecondition)
            #expect(try await home.devices().list().count == 2)

            let bridge = try #require(try await home.devices(enableMultipartDevices: true).list().first)
            #expect(
                try await bridge.checkDecommissionEligibility()
                    == .eligibleWithSideEffects(.bridge(bridgedDeviceIDs: Set(bridged.map(\.id)))))
            #expect(try await bridge.decommissionDevice() == [bridge.id])
            #expect(try await home.devices().list().isEmpty)
            #expect(await device.fabrics.isEmpty)
        }
    }

    @Test func anotherUserWithoutAGrantMayNotRemove() async throws {
        try await DeviceTypeControllerLiveTests.withLiveDevice(kind: .light) { home, device, _ in
            let statePath = home.context.local.hub.directory.path
            var status = stat()
            #expect(stat(statePath, &status) == 0)
            let guest = try await Home.open(
                statePath: statePath, configuration: Home.Configuration(stateDirectory: statePath),
                callerUID: status.st_uid + 1)
            let lamp = try #require(try await guest.devices().list().first)
            #expect(try await lamp.checkDecommissionEligibility() == .ineligible(reason: .notAuthorized))
            let denied = await #expect(throws: HomeError.self) { try await lamp.decommissionDevice() }
            #expect(denied?.code == .permissionDenied)
            #expect(try await home.devices().list().count == 1)
            #expect(await device.fabrics.count == 1)
        }
    }

    @Test func anUnreachableDeviceIsForgottenAllTheSame() async throws {
        try await DeviceTypeControllerLiveTests.withLiveDevice(kind: .light) { home, device, _ in
            let lamp = try #require(try await home.devices().list().first)
            await device.shutdown()
            #expect(try await lamp.decommissionDevice() == [lamp.id])
            #expect(try await home.devices().list().isEmpty)
            #expect(try await home.context.store.nodes().isEmpty)
        }
    }
}
