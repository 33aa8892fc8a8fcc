import Foundation
import HomeRecords
import MatterCertificates
import MatterDevice
import MatterPlatform
import MatterTestSupport
import Testing

@testable import HomeAPI
@testable import HomeEngine
@_spi(CrashTesting) @testable import HomeHub
@testable import HubWire

/// The add-device flow's commissioning killed right after each step in turn (its session's owner dies with it), then
/// the next `prepareForMatterCommissioning()`: an abandoned session is undone, so every case ends with no trace of the
/// attempt in the store and none of our fabric on the device. On the real clock over loopback: a device killed
/// before AddNOC is left to its fail-safe (the commissioner's crash tests wait that out on virtual time).
@Suite struct AddDeviceCrashPointTests {
    @Test(
        arguments: CommissioningStep.allCases.filter { ![.discovery, .bluetoothSession, .networkSetup].contains($0) })
    func anAbandonedSessionIsUndoneWhereverItsCommissioningDied(after step: CommissioningStep) async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            let other = try await fixture.openSessionOwnedByAnotherProcess(structure)
            let hub = try fixture.home.hub.requireEngine("the crash test").hub
            let transport = try MatterTransport()
            let commissioner = Commissioner(authority: hub.authority, store: hub.store, transport: transport)
            await commissioner.endAbruptly(after: step)
            let request = CommissioningRequest(
                payload: fixture.device.setupPayload, address: fixture.address,
                trustStore: try PAATrustStore(directory: fixture.statePath + "/paa"), session: "other process")
            await #expect(throws: CommissioningError.self) { try await commissioner.commission(request) }
            // The owner dies, and with it the commissioning's sockets.
            await transport.shutdown()
            other.send(SIGKILL)
            _ = await other.termination()
            #expect(try await fixture.storedNodeIDs().count == (step >= .addOperationalCertificate ? 1 : 0))

            try await structure.prepareForMatterCommissioning()
            #expect(try await fixture.storedNodeIDs().isEmpty, "the abandoned session's node is gone")
            #expect(await fixture.device.fabrics.isEmpty, "the device still holds the abandoned session's fabric")
            #expect(try await fixture.home.interruptedDevices().list().isEmpty)
            if step >= .commissioningComplete || step == .passcodeSession {
                // Nothing was left to a fail-safe (this device arms its own only at ArmFailSafe): the device is
                // commissionable again at once.
                #expect(await fixture.device.isCommissioningWindowOpen)
            } else {
                #expect(await fixture.device.isFailSafeArmed, "the fail-safe rolls the rest back when it expires")
            }
            await fixture.device.shutdown()
        }
    }
}
