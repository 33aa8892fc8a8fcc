import Foundation
import HomeHub
import MatterDataModel
import MatterInteraction
import MatterNode
import MatterOTA
import MatterTLV
import MatterTestSupport
import MatterTime
import Testing

@testable import MatterDevice

/// A firmware update end to end over loopback: our virtual device as OTA requestor (Matter Core §11.21.7), the hub's
/// node as its provider. The hub announces itself; the device queries, downloads over BDX, checks, asks to apply,
/// runs the new version as after a reboot and says so.
@Suite(.timeLimit(.minutes(1))) struct OTAUpdateTests {
    typealias Requestor = OtaSoftwareUpdateRequestorCluster

    /// An image for the fixture's device (vendor 0xFFF1, product 0x8000), written where `add` takes it from.
    static func addImage(version: UInt32, to hub: Hub, in directory: String) async throws -> OTAImage {
        let image = try OTAImage(
            payload: (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 13) },
            vendorID: DeviceConstants.defaultVendorID,
            productID: DeviceConstants.defaultProductID, softwareVersion: version,
            softwareVersionString: "\(version).0-test")
        let path = directory + "/v\(version).ota"
        try Data(image.encoded).write(to: URL(fileURLWithPath: path))
        try await hub.updates.images.add(fileAt: path)
        return image
    }

    /// The hub, over a session from its own node's transport (so the device finds its provider there), tells the
    /// device an update is available.
    static func announce(_ hub: Hub, to nodeID: UInt64, fixture: LoopbackFixture) async throws {
        let link = try await hub.link()
        let client = try await fixture.caseClient(hub, nodeID: nodeID, transport: link.transport)
        _ = try await client.invoke(
            Requestor.Commands.AnnounceOTAProvider(
                providerNodeID: hub.authority.hubNodeID, vendorID: 0xFFF1, announcementReason: .updateAvailable,
                endpoint: 0), endpoint: 0)
    }

    /// The provider's events until `last` matches (at most 30 s).
    static func events(
        _ stream: AsyncStream<OTAProvider.Event>, until last: @escaping @Sendable (OTAProvider.Event) -> Bool
    ) async -> [OTAProvider.Event] {
        await withTaskGroup(of: [OTAProvider.Event].self) { group in
            group.addTask {
                var seen: [OTAProvider.Event] = []
                for await event in stream {
                    if case .transferred = event { continue }
                    seen.append(event)
                    if last(event) { break }
                }
                return seen
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return []
            }
            let first = await group.next() ?? []
            group.cancelAll()
            return first
        }
    }

    @Test func anAnnouncedUpdateIsDownloadedAppliedAndNotified() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            let nodeID = try await fixture.commission(hub: hub).nodeID
            #expect(await fixture.device.softwareVersion == 1)
            _ = try await Self.addImage(version: 2, to: hub, in: directory)
            let stream = hub.updates.events()
            try await Self.announce(hub, to: nodeID, fixture: fixture)
            let seen = await Self.events(stream) { if case .applied = $0 { true } else { false } }
            #expect(
                seen == [
                    .offered(nodeID: nodeID, version: 2), .transferEnded(nodeID: nodeID, .finished),
                    .applying(nodeID: nodeID, version: 2), .applied(nodeID: nodeID, version: 2),
                ])
            #expect(await fixture.device.softwareVersion == 2)
            #expect(try fixture.store.loadOrCreate(DeviceSettings()).identity.softwareVersion == 2, "stored")
            #expect(fixture.lines.all.contains("[ota] now running version 2 (2.0-test)"))

            // What the device says of itself, over a new session (the "reboot" ended the old ones).
            let transport = try fixture.controllerTransport()
            let client = try await fixture.caseClient(hub, nodeID: nodeID, transport: transport)
            let report = try await client.read([
                BasicInformationCluster.Attributes.softwareVersionString.path(endpoint: 0),
                Requestor.Attributes.updateState.path(endpoint: 0),
            ])
            var cache = AttributeCache()
            cache.apply(report.attributeReports)
            #expect(
                try cache.value(BasicInformationCluster.Attributes.softwareVersionString, endpoint: 0) == "2.0-test")
            #expect(try cache.value(Requestor.Attributes.updateState, endpoint: 0) == .idle)
            let states = await fixture.device.events(of: Requestor.id.rawValue).compactMap { event in
                try? Requestor.Events.StateTransition(tlv: event.data ?? TLVElement(.null)).newState
            }
            #expect(states == [.querying, .downloading, .applying, .idle])
            let applied = await fixture.device.events(of: Requestor.id.rawValue).filter {
                $0.path.event == Requestor.Events.VersionApplied.id.rawValue
            }
            #expect(applied.count == 1)
            await transport.shutdown()
            await hub.close()
            await fixture.device.shutdown()
        }
    }

    /// The image changed on the hub's disk after it was added: the hub will not serve it, the device records a
    /// DownloadError and keeps running the old version, idle again.
    @Test func aTransferThatFailsLeavesTheOldVersionRunning() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory)
            let hub = try await Hub(statePath: fixture.hubPath)
            let nodeID = try await fixture.commission(hub: hub).nodeID
            var bytes = try await Self.addImage(version: 2, to: hub, in: directory).encoded
            bytes[bytes.count - 1] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: hub.updates.images.directory + "/FFF1-8000-2.ota"))
            let stream = hub.updates.events()
            try await Self.announce(hub, to: nodeID, fixture: fixture)
            let seen = await Self.events(stream) { if case .transferEnded = $0 { true } else { false } }
            guard case .transferEnded(nodeID, .failed)? = seen.last else {
                Issue.record("expected the transfer to fail: \(seen)")
                return
            }
            // The device's side of it: DownloadError, idle, version 1.
            var errors: [EventDataIB] = []
            for _ in 0..<300 where errors.isEmpty {
                errors = await fixture.device.events(of: Requestor.id.rawValue).filter {
                    $0.path.event == Requestor.Events.DownloadError.id.rawValue
                }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(errors.count == 1)
            #expect(await fixture.device.softwareVersion == 1)
            #expect(
                fixture.lines.all.contains {
                    $0.hasPrefix("[ota] update failed: the download: the peer ended the transfer")
                })
            await hub.close()
            await fixture.device.shutdown()
        }
    }
}

extension OTAUpdateTests {
    /// §11.21.2.3: only a `bdx://` URI naming the provider that answered, with a designator, is fetched.
    @Test func theImageURIMustNameTheProviderAndAFile() {
        let provider: UInt64 = 0x0000_0000_1234_ABCD
        #expect(
            VirtualDevice.designator(in: "bdx://000000001234ABCD/FFF1-8000-2.ota", provider: provider)
                == Array("FFF1-8000-2.ota".utf8))
        #expect(VirtualDevice.designator(in: "bdx://000000001234abcd/x", provider: provider) == Array("x".utf8))
        #expect(VirtualDevice.designator(in: "bdx://000000001234ABCE/x", provider: provider) == nil, "another node")
        #expect(VirtualDevice.designator(in: "bdx://1234ABCD/x", provider: provider) == nil, "not 16 digits")
        #expect(VirtualDevice.designator(in: "bdx://000000001234ABCD/", provider: provider) == nil, "no file")
        #expect(VirtualDevice.designator(in: "https://example.com/x.ota", provider: provider) == nil)
    }
}

extension OTAUpdateTests {
    /// Told of its default provider (DefaultOTAProviders, fabric-scoped: stored with the writer's fabric), the requestor
    /// asks it on its own a day after it starts, with no announcement: on virtual time. The provider named here never
    /// opened a session to the device, so the query fails saying it cannot be found; that it was tried is the point.
    @Test func theRequestorAsksItsDefaultProviderOnItsOwnEveryDay() async throws {
        try await withTemporaryDirectory { directory in
            let network = ClockedNetwork(clock: ManualClock(), seed: 9)
            let fixture = try await LoopbackFixture.start(in: directory, network: network)
            let hub = try await Hub(statePath: fixture.hubPath)
            let (_, client, transport) = try await fixture.commissionAndConnect(hub)
            let provider: UInt64 = 0xABCD_0001
            let location = Requestor.ProviderLocation(providerNodeID: provider, endpoint: 0, fabricIndex: 9)
            let written = await drive(network.clock, step: .milliseconds(1)) {
                try? await client.write([
                    AttributeDataIB(
                        path: Requestor.Attributes.defaultOTAProviders.path(endpoint: 0),
                        data: TLVElement(.array([TLVElement(location.tlvValue())])))
                ]).map(\.status.status)
            }
            #expect(written?.value == [.success])
            let fabricIndex = try #require(await fixture.device.fabrics.first?.index)
            #expect(
                await fixture.device.defaultOTAProviders
                    == [Requestor.ProviderLocation(providerNodeID: provider, endpoint: 0, fabricIndex: fabricIndex)])

            let asked = {
                fixture.lines.all.contains { $0.contains("[ota] update failed: node 0xABCD0001 has no session") }
            }
            // The device started at the clock's zero.
            network.clock.advance(to: .zero + .seconds(24 * 3600 - 60))
            try await Task.sleep(for: .milliseconds(200))
            #expect(!asked(), "asked before its day was up")
            network.clock.advance(to: .zero + .seconds(24 * 3600 + 1))
            #expect(await eventually(within: .seconds(10)) { asked() })
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }
}
