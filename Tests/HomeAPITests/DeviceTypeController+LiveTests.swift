import Foundation
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDataModel
import MatterDevice
import MatterDiscovery
import MatterPlatform
import MatterTLV
import MatterTestSupport
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HubWire

/// The Home API over a live node: our virtual device (an On/Off light on endpoint 1), commissioned by the hub over
/// loopback with no mDNS, then followed through `Home`. Serialized: each live home polls its transport, and three at
/// once starve the rest of a parallel run on two cores.
@Suite(.serialized) struct DeviceTypeControllerLiveTests {
    static let passcode: UInt32 = 20202021

    static func withLiveLight(
        liveness: Duration = .seconds(60), _ body: (Home, VirtualDevice) async throws -> Void
    ) async throws {
        try await withLiveDevice(kind: .light, liveness: liveness) { home, device, _ in try await body(home, device) }
    }

    /// Starts a virtual device of `kind`, commissions it onto the hub in `directory/hub`, and opens a home there whose
    /// subscriptions prove liveness every `liveness`. The body also gets the device's store, to restart it on its state.
    static func withLiveDevice(
        kind: DeviceKind, liveness: Duration = .seconds(60), simulation: Simulation = Simulation(),
        intermittent: IntermittentConnection? = nil, radio: SimulatedRadio? = nil,
        _ body: (Home, VirtualDevice, DeviceStore) async throws -> Void
    ) async throws {
        try await withHome { _, _, directory in
            let store = DeviceStore(directory: directory + "/device")
            let state = try store.loadOrCreate(DeviceSettings(kind: kind, passcode: passcode, discriminator: 3840))
            let device = try VirtualDevice(
                store: store, state: state, port: 0, simulation: simulation, radio: radio, intermittent: intermittent,
                log: { _ in })
            try await device.start()
            let hub = try await Hub(statePath: directory + "/hub")
            let trust = PAATrustStore(certificates: [try X509Certificate(derEncoded: device.attestation.paa)])
            let address = SocketAddress.ipv4(IPv4Address(127 << 24 | 1), port: device.port)
            _ = try await hub.commission(
                CommissioningRequest(payload: device.setupPayload, address: address, trustStore: trust),
                name: "lamp", room: nil, progress: { _ in })
            let home = try await Home.connect(
                Home.Configuration(stateDirectory: directory + "/hub", liveness: liveness))
            try await body(home, device, store)
            await home.disconnect()
            await device.shutdown()
        }
    }

    /// A trait whose endpoint does not serve its cluster (kept from before a bridge changed it, here made so) is
    /// refused from the node's live Descriptor before anything is sent, naming the clusters the endpoint has.
    @Test func aCommandForAClusterTheEndpointLacksIsAFailedPrecondition() async throws {
        try await Self.withLiveLight { home, _ in
            let lamp = try #require(
                try await home.devices().list().first { $0.types.contains(OnOffLightDeviceType.self) })
            let onOff = try #require(await lamp.types.get(OnOffLightDeviceType.self)?.matterTraits.onOffTrait)
            let level = LevelControlTrait(
                context: TraitContext(snapshot: onOff.context.snapshot, cluster: LevelControlCluster.id))
            let error = await #expect(throws: HomeError.self) {
                try await level.moveToLevelWithOnOff(
                    level: 10, transitionTime: .null, optionsMask: [], optionsOverride: [])
            }
            #expect(error?.code == .failedPrecondition)
            #expect(error?.message.contains("has no LevelControl (its clusters: ") == true)
            #expect(error?.message.contains("OnOff") == true)
        }
    }

    @Test func onOffLightReadsCommandsAndFollowsTheDevice() async throws {
        try await Self.withLiveLight { home, _ in
            let lamp = try #require(
                try await home.devices().list().first { $0.types.contains(OnOffLightDeviceType.self) })
            let light = try #require(await lamp.types.get(OnOffLightDeviceType.self))
            let onOff = try #require(light.matterTraits.onOffTrait)
            #expect(onOff.attributes.onOff == false)
            // The documentation's spellings reach the same live trait; an on/off light serves no Level Control.
            #expect(light.traits[Matter.OnOffTrait.self]?.attributes.onOff == false)
            #expect(light.traits.contains(Matter.OnOffTrait.self))
            #expect(!light.traits.contains(Matter.LevelControlTrait.self))
            #expect(light.metadata.isPrimaryType)
            #expect(
                light.metadata.sourceConnectivity
                    == SourceConnectivity(connectivityState: .online, dataSourceLocality: .direct))
            #expect(onOff.metadata.sourceConnectivity == light.metadata.sourceConnectivity)
            #expect(onOff.supports(OnOffCluster.Commands.Toggle.self))
            #expect(light.traits[OnOffTrait.self] == onOff)

            // The node's root endpoint comes with every device: its Basic Information names the product, and its
            // General Diagnostics lists the node's network interfaces (the host's loopback here).
            let root = try #require(await lamp.types.get(RootNodeDeviceType.self))
            #expect(!root.metadata.isPrimaryType && root.metadata.endpoint == 0)
            #expect(root.matterTraits.basicInformationTrait?.attributes.vendorName == "swift-home")
            let interfaces = root.matterTraits.generalDiagnosticsTrait?.attributes.networkInterfaces ?? []
            #expect(interfaces.contains { $0.ipv4AddressStrings.contains("127.0.0.1") })

            let states = Recorder { record in
                for try await value in lamp.types.subscribe(OnOffLightDeviceType.self) {
                    record(value.matterTraits.onOffTrait?.attributes.onOff)
                }
            }
            #expect(await states.values(count: 1) == [false])
            try await onOff.on()
            #expect(await states.values(count: 2) == [false, true])
            try await onOff.toggle()
            #expect(await states.values(count: 3) == [false, true, false])
            states.cancel()
            // The device is followed live now: the device list shows it online.
            #expect(try await home.devices().list().first?.sourceConnectivity.connectivityState == .online)
        }
    }

    @Test func theDevicesTypesFollowItsDescriptorOnceLive() async throws {
        try await Self.withLiveLight { home, _ in
            let store = home.context.store
            let lamp = try #require(try await home.devices().list().first)
            let nodeID = lamp.types.nodeID
            let stored = try await store.endpoints(of: nodeID)
            // The store lost the light's type (as if commissioned by an older build, or before a firmware update).
            try await store.setEndpoints(stored.filter { $0.endpoint == 0 }, of: nodeID)
            let stale = try #require(try await home.devices().list().first)
            #expect(!stale.types.contains(OnOffLightDeviceType.self))

            let batches = Recorder { record in
                for try await devices in home.devices().batched() {
                    record(devices.first?.types.contains(OnOffLightDeviceType.self) ?? false)
                }
            }
            #expect(await batches.values(count: 1) == [false])
            // First contact: the node's Descriptor says what endpoint 1 is, and the store follows.
            _ = await stale.types.get(RootNodeDeviceType.self)
            await batches.until { $0.last == true }
            batches.cancel()
            #expect(batches.values.last == true)
            #expect(Set(try await store.endpoints(of: nodeID)) == Set(stored))
        }
    }

    @Test func aTypeTheLiveDeviceLacksFinishesAtOnce() async throws {
        try await Self.withLiveLight { home, _ in
            let lamp = try #require(
                try await home.devices().list().first { $0.types.contains(OnOffLightDeviceType.self) })
            let fan = Recorder { record in
                for try await value in lamp.types.subscribe(FanDeviceType.self) { record(value) }
            }
            await fan.waitUntilFinished()
            #expect(fan.finished && fan.values.isEmpty && fan.error == nil)
            #expect(await lamp.types.get(FanDeviceType.self) == nil)
        }
    }

    @Test func connectivityTurnsOfflineWhenTheDeviceStops() async throws {
        try await Self.withLiveLight(liveness: .seconds(1)) { home, device in
            let lamp = try #require(
                try await home.devices().list().first { $0.types.contains(OnOffLightDeviceType.self) })
            let states = Recorder { record in
                for try await value in lamp.types.subscribe(OnOffLightDeviceType.self) {
                    record(value.metadata.sourceConnectivity.connectivityState)
                }
            }
            #expect(await states.values(count: 1) == [.online])
            await device.shutdown()
            // Offline once the subscription misses its 1 s max interval plus the MRP retransmission time.
            let seen = await states.values(count: 2)
            #expect(seen.first == .online && seen.last == .offline)
            states.cancel()
        }
    }

    /// The device followed live through the Home API: both live queries of devices see it go offline when it stops,
    /// and online again once it is back (restarted on its state) and the hub has resubscribed.
    @Test func devicesQueriesFollowConnectivityOfflineAndBackOnline() async throws {
        try await Self.withLiveDevice(kind: .light, liveness: .seconds(1)) { home, device, store in
            let lamp = try #require(
                try await home.devices().list().first { $0.types.contains(OnOffLightDeviceType.self) })
            _ = await lamp.types.get(OnOffLightDeviceType.self)
            let batches = Recorder { record in
                for try await devices in home.devices().batched() {
                    record(devices.first { $0.id == lamp.id }?.sourceConnectivity.connectivityState)
                }
            }
            let changes = Recorder { record in
                for try await changed in home.devices().stream() where changed.id == lamp.id {
                    record(changed.sourceConnectivity.connectivityState)
                }
            }
            await batches.until { $0.contains(.online) }
            await changes.until { $0.contains(.online) }
            #expect(batches.values.first == .online && changes.values.first == .online)

            await device.shutdown()
            // Offline once the subscription misses its 1 s max interval plus the MRP retransmission time.
            await batches.until { $0.last == .offline }
            await changes.until { $0.last == .offline }
            #expect(batches.values.last == .offline && changes.values.last == .offline)

            let restarted = try VirtualDevice(
                store: store, state: try store.loadOrCreate(DeviceSettings(kind: .light)), port: 0, log: { _ in })
            try await restarted.start()
            // Back on a new port, which mDNS would announce; here the hub is told.
            try await home.context.store.updateReachability(
                of: lamp.nodeID, addresses: [.ipv4(IPv4Address(127 << 24 | 1), port: restarted.port)],
                mrpParameters: nil)
            await batches.until { $0.drop { $0 != .offline }.contains(.online) }
            await changes.until { $0.drop { $0 != .offline }.contains(.online) }
            #expect(batches.values.last == .online && changes.values.last == .online)
            // Each batch is a different set: nothing is emitted twice in a row.
            #expect(zip(batches.values, batches.values.dropFirst()).allSatisfy { $0 != $1 })
            batches.cancel()
            changes.cancel()
            await restarted.shutdown()
        }
    }

    /// A bridge followed live adds a bridged light: it appears in the next batch as a device the bridge's label names,
    /// in no room, whose on/off switches the bridged light. Once the bridge drops it, the next batches lack it. The
    /// bridge's other devices keep their names and rooms throughout.
    @Test func aBridgedDeviceTheBridgeAddsAppearsLiveAndOneItDropsGoes() async throws {
        try await Self.withLiveDevice(kind: .bridge) { home, bridge, store in
            let office = try await home.createRoom(name: "Office")
            let light = try #require(
                try await home.devices().list().first { $0.types.contains(OnOffLightDeviceType.self) })
            _ = try await home.move(device: light, to: office)
            let summary = { (device: HomeDevice) in "\(device.id) \(device.name) \(device.roomID ?? "no room")" }
            let others = try await home.devices().list().map(summary).sorted()
            #expect(others.count == 2)

            let batches = Recorder { record in for try await devices in home.devices().batched() { record(devices) } }
            // Following one of the bridge's devices follows the bridge.
            _ = try #require(await light.types.get(OnOffLightDeviceType.self))
            await batches.until { !$0.isEmpty }

            let endpoint = try await bridge.addBridgedDevice(label: "Shed light")
            await batches.until { $0.last?.contains { $0.name == "Shed light" } == true }
            let latest = try #require(batches.values.last)
            let shed = try #require(latest.first { $0.name == "Shed light" })
            #expect(shed.id == "\(light.id.split(separator: "-")[0])-\(endpoint)")
            #expect(shed.roomID == nil)
            #expect(shed.types.contains(OnOffLightDeviceType.self))
            #expect(latest.filter { $0.id != shed.id }.map(summary).sorted() == others)

            let shedLight = try #require(await shed.types.get(OnOffLightDeviceType.self))
            #expect(shedLight.matterTraits.onOffTrait?.attributes.onOff == false)
            try await #require(shedLight.matterTraits.onOffTrait).on()
            // The bridge keeps its bridged light's state, which the command changed (written within half a second).
            let on = Data(TLVWriter.encode(TLVElement(.bool(true))))
            #expect(await eventually(within: .seconds(5)) { (try? store.load()?.clusters["\(endpoint)/6"]) == on })

            let seen = batches.values.count
            try await bridge.removeBridgedDevice(endpoint: endpoint)
            await batches.until { $0.count > seen && $0.last?.contains { $0.id == shed.id } == false }
            batches.cancel()
            #expect(batches.values.last?.contains { $0.id == shed.id } == false)
            #expect(batches.values.last?.map(summary).sorted() == others)
            #expect(try await home.devices().list().map(summary).sorted() == others)
        }
    }

    /// The 4-switch panel: with multipart devices one device whose Generic Switch parts come in endpoint order, told
    /// apart by their Common Number tags; without, four devices, each with its own tag.
    @Test func aSwitchPanelIsOneMultipartDeviceWithTaggedPartsOrFourDevices() async throws {
        try await Self.withLiveDevice(kind: .switchPanel) { home, _, _ in
            let panels = try await home.devices(enableMultipartDevices: true).list()
            let panel = try #require(panels.first)
            #expect(panels.count == 1)
            let buttons = try await panel.types.getAll(of: GenericSwitchDeviceType.self)
            #expect(buttons.map(\.metadata.endpoint) == [1, 2, 3, 4])
            #expect(
                buttons.map { $0.metadata.semanticTags.map(\.description) } == [
                    ["Number 1"], ["Number 2"], ["Number 3"], ["Number 4"],
                ])
            #expect(buttons.allSatisfy { $0.metadata.semanticTags.first?.namespaceName == "Number" })
            #expect(buttons.allSatisfy { $0.matterTraits.switchTrait != nil })

            let separate = try await home.devices().list()
            #expect(separate.count == 4)
            var tags: [String] = []
            for device in separate.sorted(by: { $0.id < $1.id }) {
                let button = try #require(await device.types.get(GenericSwitchDeviceType.self))
                tags += button.metadata.semanticTags.map(\.description)
            }
            #expect(tags == ["Number 1", "Number 2", "Number 3", "Number 4"])
        }
    }
}
