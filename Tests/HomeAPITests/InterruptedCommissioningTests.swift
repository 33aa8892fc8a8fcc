import Foundation
import HomeRecords
import MatterCertificates
import MatterDevice
import Synchronization
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HomeHub
@testable import HubWire

/// A commissioning whose process died after CommissioningComplete, before its final store write: the device holds
/// the hub's NOC (its fail-safe no longer undoes it) while the store has only a failed row and no devices. The next
/// command finishes it instead of leaving a ghost the hub never talks to.
@Suite struct InterruptedCommissioningTests {
    /// A virtual device commissioned through the add-device flow, then the store made to look as it does when the
    /// process died right after CommissioningComplete and its row was found abandoned: failed, with no devices.
    static func interruptedAfterCommissioningComplete(in directory: String) async throws -> VirtualDeviceFixture {
        let fixture = try await VirtualDeviceFixture.start(in: directory)
        let structure = try await fixture.structure()
        try await structure.prepareForMatterCommissioning()
        try await fixture.commissioner.commissionMatterDevice(onboardingPayload: try fixture.qrCode)
        _ = try structure.completeMatterCommissioning()
        await structure.context.settled()
        try fixture.home.context.store.write { transaction in
            try transaction.query("DELETE FROM devices")
            try transaction.query("UPDATE nodes SET state = 'failed'")
        }
        return fixture
    }

    @Test func aDeviceLeftHoldingOurFabricIsFinishedAndItsDevicesAdded() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await Self.interruptedAfterCommissioningComplete(in: directory)
            let nodeID = try #require(try await fixture.storedNodeIDs().first)
            #expect(try await fixture.home.devices().list().isEmpty)

            let hub = try await Hub(statePath: fixture.statePath)
            let finished = await hub.finishInterruptedCommissionings(interfaces: [])
            #expect(finished.map(\.nodeID) == [nodeID])
            #expect(finished.first?.devices.map(\.nodeID) == [nodeID])
            #expect(try await hub.store.interruptedCommissionings().isEmpty)
            let devices = try await fixture.home.devices().list()
            #expect(devices.map(\.name) == [finished.first?.productName])
            #expect(devices.first?.roomID == nil)
            // Nothing is left to finish: a second pass does nothing.
            #expect(await hub.finishInterruptedCommissionings(interfaces: []).isEmpty)
            await fixture.device.shutdown()
        }
    }

    /// An app that connects is the hub while it lives: it finishes the interrupted commissioning in the background,
    /// and its live device query shows the device when that is done.
    @Test func connectingFinishesItInTheBackgroundAndTheQueryShowsTheDevice() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await Self.interruptedAfterCommissioningComplete(in: directory)

            let app = try await Home.connect(Home.Configuration(stateDirectory: fixture.statePath))
            let counts = Recorder { record in
                for try await devices in app.devices().batched() { record(devices.count) }
            }
            await counts.until { $0.last == 1 }
            #expect(counts.values.last == 1)
            counts.cancel()
            await app.disconnect()
            await fixture.device.shutdown()
        }
    }

    /// The same `home commission` run again after the interruption: the device is finished (by that command, or by a
    /// restart before it), and since it is this very device (its window is closed: it is ours now), the command
    /// succeeds with it, named and placed as asked. Once adopted, it is a device like any other: a third run is
    /// refused as already on the hub.
    @Test(arguments: [false, true])
    func commissioningTheSameDeviceAgainAdoptsTheFinishedOne(finishedByARestart: Bool) async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await Self.interruptedAfterCommissioningComplete(in: directory)
            let nodeID = try #require(try await fixture.storedNodeIDs().first)
            if finishedByARestart {
                let hub = try await Hub(statePath: fixture.statePath)
                #expect(await hub.finishInterruptedCommissionings(interfaces: []).count == 1)
            }
            let notes = Recorded()
            let code = try fixture.qrCode
            let commission = { () async throws(HomeError) -> CommissionedDevice in
                try await fixture.home.hub.perform(
                    CommissionDevice(
                        payload: code, address: fixture.address, interfaces: [],
                        paaTrustStore: fixture.statePath + "/paa", acceptUntrustedDevice: false, name: "Desk lamp",
                        room: "Office"), progress: { line in if case .note(let text) = line { notes.append(text) } })
            }
            let added = try await commission()
            #expect(added.nodeID == nodeID)
            #expect(
                notes.values.contains { $0.hasPrefix("finished adding ") && $0.contains("(interrupted earlier): ") }
                    == !finishedByARestart)
            #expect(notes.values.last?.hasPrefix("this device is the one an interrupted attempt left") == true)
            let devices = try await fixture.home.devices().list()
            #expect(devices.map(\.name) == ["Desk lamp"])
            let office = try #require(try await fixture.home.rooms().list().first { $0.name == "Office" })
            #expect(devices.first?.roomID == office.id)
            #expect(added.devices.map(\.description) == devices.map(\.id))

            let again = await #expect(throws: HomeError.self) { try await commission() }
            #expect(again?.code == .alreadyExists)
            await fixture.device.shutdown()
        }
    }

    /// Until it is finished, an app sees the device as interrupted, and the user can give up on it: it is asked to
    /// leave the hub's fabric, and forgotten.
    @Test func anAppSeesTheInterruptedDeviceAndCanGiveUpOnIt() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await Self.interruptedAfterCommissioningComplete(in: directory)
            let nodeID = try #require(try await fixture.storedNodeIDs().first)
            let interrupted = try await fixture.home.interruptedDevices().list()
            #expect(interrupted.map(\.id) == [HubEngine.nodeDeviceID(nodeID)])
            let device = try #require(interrupted.first)
            #expect(device.vendorID == fixture.device.setupPayload.vendorID)
            #expect(device.lastStep == CommissioningStep.interview.description)
            #expect(try await fixture.home.devices().list().isEmpty, "not one of the home's devices")

            #expect(try await device.remove() == nil, "it was reachable, so it left the fabric")
            #expect(await fixture.device.fabrics.isEmpty)
            #expect(try await fixture.home.interruptedDevices().list().isEmpty)
            #expect(try await fixture.storedNodeIDs().isEmpty)
            await fixture.device.shutdown()
        }
    }

    @Test func aNodeThatNoLongerHoldsOurFabricStaysMarkedFailed() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await Self.interruptedAfterCommissioningComplete(in: directory)
            // The device does not answer (gone, or rolled back by its fail-safe and no longer ours): nothing to finish.
            await fixture.device.shutdown()

            let hub = try await Hub(statePath: fixture.statePath)
            #expect(await hub.finishInterruptedCommissionings(interfaces: []).isEmpty)
            #expect(try await hub.store.interruptedCommissionings().count == 1)
            #expect(try await fixture.home.devices().list().isEmpty)
            #expect(try await fixture.home.interruptedDevices().list().count == 1, "shown until finished or removed")
        }
    }

    /// The device's window closed when this hub commissioned it, so it answers a second PASE with BUSY: the failure
    /// says it is already on this hub, not to wait for a fail-safe.
    @Test func commissioningADeviceAlreadyOnThisHubSaysSo() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let structure = try await fixture.structure()
            try await structure.prepareForMatterCommissioning()
            try await fixture.commissioner.commissionMatterDevice(onboardingPayload: try fixture.qrCode)
            _ = try structure.completeMatterCommissioning()
            await structure.context.settled()

            let hub = try await Hub(statePath: fixture.statePath)
            let request = CommissioningRequest(
                payload: fixture.device.setupPayload, address: fixture.address,
                trustStore: try PAATrustStore(directory: fixture.statePath + "/paa"))
            let error = await #expect(throws: CommissioningError.self) {
                try await hub.commission(request, name: nil, room: nil) { _ in }
            }
            guard case .stepFailed(.passcodeSession, let failure) = error else {
                Issue.record("\(String(describing: error))")
                return
            }
            #expect(failure.kind == .alreadyCommissioned)
            #expect(failure.reason.contains("is already on this hub, as node"))
            await fixture.device.shutdown()
        }
    }
}

/// Lines a callback hands over from any thread.
final class Recorded: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var values: [String] { lines.withLock { $0 } }
}
