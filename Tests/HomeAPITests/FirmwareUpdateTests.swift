import Foundation
import HomeHub
import MatterDevice
import MatterOTA
import MatterTestSupport
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

    /// Two updates of one device asked at once: one runs to the new version, the other is refused at once saying
    /// why; afterwards the device may be updated again (nothing is left held).
    @Test func twoUpdatesOfOneDeviceAtOnceRunOneAndRefuseTheOther() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let nodeID = try await Self.commissioned(fixture)
            let hub = fixture.home.hub
            _ = try await hub.perform(AddUpdateImage(path: try Self.image(version: 2, in: directory)))
            @Sendable func update() async -> Result<UpdateDevice.Reply, HomeError> {
                do throws(HomeError) {
                    return .success(try await hub.perform(UpdateDevice(nodeID: nodeID)))
                } catch {
                    return .failure(error)
                }
            }
            async let first = update()
            async let second = update()
            let outcomes = await [first, second]
            let refusals = outcomes.compactMap { outcome -> HomeError? in
                if case .failure(let error) = outcome { error } else { nil }
            }
            #expect(outcomes.filter { if case .success = $0 { true } else { false } }.count == 1)
            #expect(refusals.map(\.message) == ["an update of this device is already under way: wait for it to end"])
            #expect(await fixture.device.softwareVersion == 2)
            _ = try await hub.perform(AddUpdateImage(path: try Self.image(version: 3, in: directory)))
            #expect(try await hub.perform(UpdateDevice(nodeID: nodeID)).to == 3)
            await fixture.device.shutdown()
        }
    }

    /// The hub names itself the device's default OTA provider at its first contact, so the device's own daily query
    /// finds an image the hub holds with no one asking for the update.
    @Test func theHubIsTheDevicesDefaultProviderAndItsOwnQueryFindsTheImage() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            let nodeID = try await Self.commissioned(fixture)
            let hubNodeID = try #require(fixture.home.hub.engine?.hub.authority.hubNodeID)
            #expect(
                await eventually(within: .seconds(10)) {
                    await fixture.device.defaultOTAProviders.map { [$0.providerNodeID, UInt64($0.endpoint)] }
                        == [[hubNodeID, 0]]
                })
            _ = try await fixture.home.hub.perform(AddUpdateImage(path: try Self.image(version: 2, in: directory)))
            await fixture.device.queryDefaultProviders()
            #expect(await fixture.device.softwareVersion == 2)
            #expect(
                await eventually(within: .seconds(10)) {
                    (try? await fixture.home.hub.perform(ReadUpdates()).nodes.first { $0.nodeID == nodeID }?.version)
                        == 2
                }, "the hub hears the new version from the device")
            await fixture.device.shutdown()
        }
    }

    /// A ledger record as the DCL's REST API answers `GET /dcl/model/versions/{vid}/{pid}/{version}`.
    static func record(
        _ version: UInt32, image: [UInt8], url: String, checksum: String? = nil, minimum: UInt32 = 0,
        maximum: UInt32? = nil, valid: Bool = true
    ) throws -> String {
        let digest = try checksum ?? Data(OTAImageDigestType.sha256.digest(image)).base64EncodedString()
        return """
            {"modelVersion": {"vid": 65521, "pid": 32768, "softwareVersion": \(version), \
            "softwareVersionString": "\(version).0", "cdVersionNumber": 1, "firmwareInformation": "", \
            "softwareVersionValid": \(valid), "otaUrl": "\(url)", "otaFileSize": "\(image.count)", \
            "otaChecksum": "\(digest)", "otaChecksumType": 1, "minApplicableSoftwareVersion": \(minimum), \
            "maxApplicableSoftwareVersion": \(maximum ?? version - 1), "releaseNotesUrl": "", "creator": "test"}}
            """
    }

    /// `home update fetch --dcl URL`: the ledger's newest version one of the home's devices may take (version 3 asks
    /// for devices at 2 or later; the lamp runs 1) is downloaded, checked against its record and added; asked again,
    /// the hub holds it. A record whose checksum is not the image's keeps nothing and says why.
    @Test func theLedgersNewestImageADeviceMayTakeIsFetchedCheckedAndAdded() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            _ = try await Self.commissioned(fixture)
            let hub = fixture.home.hub
            let v2 = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.image(version: 2, in: directory))))
            let v3 = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.image(version: 3, in: directory))))
            let base = Mutex("")
            let tampered = Mutex(false)
            let server = try TestHTTPServer { path in
                let base = base.withLock { $0 }
                let product = "/dcl/model/versions/65521/32768"
                return switch path {
                case product:
                    TestHTTPServer.answer(
                        200,
                        Array(#"{"modelVersions": {"vid": 65521, "pid": 32768, "softwareVersions": [1, 2, 3]}}"#.utf8))
                case product + "/3":
                    TestHTTPServer.answer(
                        200, Array(try! Self.record(3, image: v3, url: base + "/3.ota", minimum: 2).utf8))
                case product + "/2":
                    TestHTTPServer.answer(
                        200,
                        Array(
                            try! Self.record(
                                2, image: v2, url: base + "/2.ota",
                                checksum: tampered.withLock { $0 }
                                    ? Data(repeating: 1, count: 32).base64EncodedString() : nil
                            ).utf8))
                case "/2.ota": TestHTTPServer.answer(200, v2)
                default: TestHTTPServer.answer(404, [])
                }
            }
            base.withLock { $0 = server.base }
            let product = { (outcome: FetchUpdates.Outcome) in
                FetchUpdates.Reply(products: [
                    FetchUpdates.Product(vendorID: 0xFFF1, productID: 0x8000, running: [1], outcome: outcome)
                ])
            }

            tampered.withLock { $0 = true }
            let refused = try await hub.perform(FetchUpdates(source: .ledger(url: server.base)))
            #expect(
                refused
                    == product(
                        .failed("the image's SHA-256 checksum is not the ledger's: the download is not the image")))
            #expect(try await hub.perform(ReadUpdates()).images.isEmpty, "nothing unchecked is kept")

            tampered.withLock { $0 = false }
            let fetched = try await hub.perform(FetchUpdates(source: .ledger(url: server.base + "/")))
            #expect(fetched == product(.added(version: 2, versionString: "2.0", bytes: UInt64(v2.count))))
            #expect(server.paths.filter { $0.hasSuffix(".ota") } == ["/2.ota", "/2.ota"])
            let available = try await hub.perform(ReadUpdates()).nodes.first?.available
            #expect(available?.version == 2 && available?.source == server.base + "/2.ota")
            #expect(available?.origin == "the DCL (127.0.0.1)" && available?.updateSource == "main-net-dcl")
            let again = try await hub.perform(FetchUpdates(source: .ledger(url: server.base)))
            #expect(again == product(.held(version: 2, versionString: "2.0")))
            await fixture.device.shutdown()
        }
    }

    /// `home update fetch --records FILE`: a home with no internet is given the ledger's records in a file, with the
    /// images beside it; the same checks, the same adding. A records file that is not one is refused whole.
    @Test func aFileOfLedgerRecordsServesAHomeWithNoInternet() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await VirtualDeviceFixture.start(in: directory)
            _ = try await Self.commissioned(fixture)
            let hub = fixture.home.hub
            let mirror = directory + "/mirror"
            try FileManager.default.createDirectory(atPath: mirror, withIntermediateDirectories: true)
            let v2 = Array(try Data(contentsOf: URL(fileURLWithPath: try Self.image(version: 2, in: mirror))))
            let records = mirror + "/records.json"
            let invalid = try Self.record(4, image: v2, url: "nowhere.ota", valid: false)
            try Data("[\(try Self.record(2, image: v2, url: "65521-32768-2.ota")), \(invalid)]".utf8).write(
                to: URL(fileURLWithPath: records))
            let fetched = try await hub.perform(FetchUpdates(source: .records(path: records)))
            #expect(
                fetched.products.map(\.outcome) == [.added(version: 2, versionString: "2.0", bytes: UInt64(v2.count))])

            try Data(#"{"modelVersion": {}}"#.utf8).write(to: URL(fileURLWithPath: records))
            let notRecords = await #expect(throws: HomeError.self) {
                try await hub.perform(FetchUpdates(source: .records(path: records)))
            }
            #expect(notRecords?.code == .invalidArgument)
            #expect(notRecords?.message.contains("not a JSON array of DCL model version records") == true)
            await fixture.device.shutdown()
        }
    }
}
