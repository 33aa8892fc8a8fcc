import Foundation
import HomeHub
import MatterDevice
import MatterOTA
import Synchronization
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// Firmware updates through the hub's front door (the operations `home update add`, `home updates` and `home update`
/// run): an image checked against the home's devices before it is kept, each device's version and what it may take,
/// and an update followed until the device reports its new version.
@Suite(.timeLimit(.minutes(1))) struct FirmwareUpdateTests {
    static func image(
        version: UInt32, vendorID: UInt16 = DeviceConstants.defaultVendorID,
        productID: UInt16 = DeviceConstants.defaultProductID, minimum: UInt32? = nil, in directory: String
    ) throws -> String {
        let image = try OTAImage(
            payload: (0..<30_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ Int(version)) }, vendorID: vendorID,
            productID: productID, softwareVersion: version, softwareVersionString: "\(version).0",
            minApplicableSoftwareVersion: minimum)
        let path = directory + "/\(vendorID)-\(productID)-\(version).ota"
        try Data(image.encoded).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The fixture's device commissioned into the home, followed live; its node ID.
    static func commissioned(_ fixture: VirtualDeviceFixture) async throws -> UInt64 {
        let added = try await fixture.home.hub.perform(
            CommissionDevice(
                payload: try fixture.qrCode, address: fixture.address, interfaces: [],
                paaTrustStore: fixture.statePath + "/paa",
                acceptUntrustedDevice: false, name: "Lamp", room: "Hall"))
        let nodeID = added.nodeID
        // Its live connection reports its software version into the model.
        _ = try await fixture.home.hub.perform(FollowNode(nodeID: nodeID))
        return nodeID
    }

    @Test func anImageForNoDeviceOfTheHomeIsRefusedAndNothingIsKept() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            _ = try await Self.commissioned(fixture)
            let hub = fixture.home.hub
            let otherProduct = await #expect(throws: HomeError.self) {
                try await hub.perform(
                    AddUpdateImage(path: try Self.image(version: 2, productID: 0x8001, in: directory)))
            }
            #expect(otherProduct?.code == .invalidArgument)
            #expect(
                otherProduct?.message
                    == "the image is for vendor 0xFFF1 product 0x8001; no device of this home is that product")
            let tooNew = await #expect(throws: HomeError.self) {
                try await hub.perform(AddUpdateImage(path: try Self.image(version: 3, minimum: 2, in: directory)))
            }
            #expect(
                tooNew?.message
                    == "no device of this home may take version 3 (3.0) for devices at version 2 or later: they run 1.0"
            )
            let notAnImage = await #expect(throws: HomeError.self) {
                try await hub.perform(AddUpdateImage(path: directory + "/missing.ota"))
            }
            #expect(notAnImage?.message == "cannot read \(directory)/missing.ota: No such file or directory")
            let relative = await #expect(throws: HomeError.self) {
                try await hub.perform(AddUpdateImage(path: "x.ota"))
            }
            #expect(relative?.code == .invalidArgument)
            #expect(try await hub.perform(ReadUpdates()).images.isEmpty)
            await fixture.device.shutdown()
        }
    }

    @Test func anUpdateIsFollowedUntilTheDeviceRunsIt() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let nodeID = try await Self.commissioned(fixture)
            let hub = fixture.home.hub
            let noImage = await #expect(throws: HomeError.self) { try await hub.perform(UpdateDevice(nodeID: nodeID)) }
            #expect(noImage?.code == .notFound)

            let added = try await hub.perform(AddUpdateImage(path: try Self.image(version: 2, in: directory)))
            #expect(added.nodes == [nodeID] && added.image.file == "FFF1-8000-2.ota")
            let before = try await hub.perform(ReadUpdates())
            #expect(before.nodes.map(\.version) == [1])
            #expect(before.nodes.first?.available?.version == 2)

            // Through the Home API: the device's version, the update it may take, and the update's progress.
            let lamp = try #require(try await fixture.home.devices().list().first)
            #expect(lamp.softwareVersion == "1.0")
            let offered = try #require(try await lamp.checkForUpdate())
            #expect(offered == SoftwareUpdate(version: 2, versionString: "2.0", releaseNotesURL: nil))
            var steps: [String] = []
            var percents: [Int] = []
            var lastRate = 0.0
            var installed: SoftwareUpdate?
            for try await progress in lamp.update() {
                switch progress {
                case .step(let text): steps.append(text)
                case .downloading(let percent, let rate):
                    percents.append(percent)
                    lastRate = rate
                case .installed(let update): installed = update
                }
            }
            #expect(installed == offered)
            #expect(await fixture.device.softwareVersion == 2)
            #expect(steps.first == "told the device version 2.0 is waiting")
            #expect(steps.contains("applying"))
            #expect(percents.last == 100 && percents == percents.sorted(), "\(percents)")
            // The whole image over the time since its first block: a rate, not the first block's zero.
            #expect(lastRate > 0)
            #expect(try await fixture.home.devices().list().first?.softwareVersion == "2.0")
            #expect(try await lamp.checkForUpdate() == nil)

            let after = try await hub.perform(ReadUpdates())
            #expect(after.nodes.map(\.version) == [2])
            #expect(after.nodes.first?.available == nil)
            let again = await #expect(throws: HomeError.self) { try await hub.perform(UpdateDevice(nodeID: nodeID)) }
            #expect(
                again?.message
                    == "no image in the hub's folder is newer than version 2 for this device (home update add FILE)")
            await fixture.device.shutdown()
        }
    }
}
