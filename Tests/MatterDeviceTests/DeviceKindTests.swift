import Foundation
import HomeHub
import HomeRecords
import MatterDataModel
import MatterDevice
import MatterInteraction
import MatterPlatform
import MatterTLV
import Testing

/// Every device type, commissioned in-process by our hub: its interview shows the endpoints and device types the
/// Matter Device Library prescribes; sensors drift and buttons press where a subscriber sees them.
@Suite(.serialized)
struct DeviceKindTests {
    /// Device type IDs per application endpoint (Matter Device Library §2–§11; a bridged endpoint adds Bridged Node 0x0013).
    static let expected: [DeviceKind: [UInt16: [UInt32]]] = [
        .light: [1: [0x0100]], .dimmableLight: [1: [0x0101]], .colorTemperatureLight: [1: [0x010C]],
        .extendedColorLight: [1: [0x010D]],
        .plug: [1: [0x010A]], .fan: [1: [0x002B]], .temperatureSensor: [1: [0x0302]], .humiditySensor: [1: [0x0307]],
        .contactSensor: [1: [0x0015]], .switchPanel: [1: [0x000F], 2: [0x000F], 3: [0x000F], 4: [0x000F]],
        .bridge: [1: [0x000E], 2: [0x0100, 0x0013], 3: [0x0302, 0x0013]],
    ]

    @Test(arguments: DeviceKind.allCases)
    func theHubCommissionsItAndItsInterviewShowsItsEndpoints(kind: DeviceKind) async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory, kind: kind)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            let description = try #require(result.description)
            let wanted = try #require(Self.expected[kind])
            #expect(description.productName == kind.productName)
            #expect(description.endpoints.map(\.endpoint) == [0] + wanted.keys.sorted())
            for endpoint in description.endpoints.dropFirst() {
                #expect(
                    endpoint.deviceTypes.map(\.deviceType.rawValue) == wanted[endpoint.endpoint],
                    "endpoint \(endpoint.endpoint) of \(kind)")
                #expect(endpoint.serverClusters.contains(DescriptorCluster.id))
            }
            let root = try #require(description.endpoints.first)
            #expect(root.parts == wanted.keys.sorted())
            #expect(
                root.serverClusters.contains(BasicInformationCluster.id)
                    && root.serverClusters.contains(GeneralDiagnosticsCluster.id))
            // The switch panel's buttons are told apart by Common Number (0x07) tags 1–4, which the hub stores; no
            // other kind has sibling endpoints of one type, nor tags.
            let tags = description.endpoints.flatMap { endpoint in
                endpoint.tags.map { (endpoint.endpoint, $0.namespaceID, $0.tag) }
            }
            let stored = try await hub.store.semanticTags(of: result.nodeID)
            if kind == .switchPanel {
                #expect(tags.map { [$0.0, UInt16($0.1), UInt16($0.2)] } == (1...4).map { [$0, 0x07, $0] })
                #expect(stored == (1...4).map { EndpointSemanticTag(endpoint: $0, namespaceID: 0x07, tag: UInt8($0)) })
            } else {
                #expect(tags.isEmpty && stored.isEmpty)
            }
            if kind == .bridge {
                #expect(description.endpoints.first { $0.endpoint == 1 }?.parts == [2, 3])
                #expect(
                    description.endpoints.filter { $0.endpoint > 1 }.allSatisfy {
                        $0.serverClusters.contains(BridgedDeviceBasicInformationCluster.id)
                    })
            }
            await fixture.device.shutdown()
        }
    }

    @Test func aSubscriberSeesTheTemperatureDrift() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(
                in: directory, kind: .temperatureSensor,
                simulation: Simulation(seed: 5, interval: .milliseconds(100)))
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            let transport = try MatterTransport()
            let client = try await fixture.caseClient(hub, nodeID: result.nodeID, transport: transport)
            let measured = AttributePathIB(
                endpoint: 1, cluster: TemperatureMeasurementCluster.id.rawValue, attribute: 0x0000)
            let (subscription, updates) = try await client.subscribeWithReports(
                SubscribeRequestMessage(minIntervalFloor: 0, maxIntervalCeiling: 30, attributeRequests: [measured]))
            var values = [try #require(Self.temperature(in: subscription.priming))]
            var reports = updates.makeAsyncIterator()
            while values.count < 4, let report = try await reports.next() {
                if let value = Self.temperature(in: report) { values.append(value) }
            }
            #expect(values.count == 4)
            #expect(zip(values, values.dropFirst()).allSatisfy { $0 != $1 })
            #expect(values.allSatisfy { DeviceConstants.temperatureRange.contains($0) })
            #expect(fixture.lines.all.contains { $0.hasPrefix("[temperature-sensor] ") && $0.hasSuffix(" °C") })
            await subscription.cancel()
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }

    @Test func switchPanelPressesArriveAsEvents() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(
                in: directory, kind: .switchPanel, simulation: Simulation(seed: 11, interval: .milliseconds(100)))
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            let transport = try MatterTransport()
            let client = try await fixture.caseClient(hub, nodeID: result.nodeID, transport: transport)
            let request = SubscribeRequestMessage(
                minIntervalFloor: 0, maxIntervalCeiling: 30,
                eventRequests: [EventPathIB(cluster: SwitchCluster.id.rawValue)])
            let (subscription, updates) = try await client.subscribeWithReports(request)
            var events = Self.events(in: subscription.priming)
            var reports = updates.makeAsyncIterator()
            while !events.contains(where: { $0.path.event == SwitchCluster.Events.ShortRelease.id.rawValue }),
                let report = try await reports.next()
            {
                events += Self.events(in: report)
            }
            let press = try #require(events.first { $0.path.event == SwitchCluster.Events.InitialPress.id.rawValue })
            let release = try #require(
                events.first {
                    $0.path.event == SwitchCluster.Events.ShortRelease.id.rawValue
                        && $0.path.endpoint == press.path.endpoint
                })
            #expect((1...4).contains(press.path.endpoint ?? 0))
            #expect(release.eventNumber > press.eventNumber)
            #expect(try SwitchCluster.Events.InitialPress(tlv: try #require(press.data)).newPosition == 1)
            #expect(fixture.lines.all.contains("[switch-panel] button \(press.path.endpoint ?? 0) pressed"))
            await subscription.cancel()
            await transport.shutdown()
            await fixture.device.shutdown()
        }
    }

    @Test func theDimmableLightKeepsItsLevelAcrossARestart() async throws {
        try await withTemporaryDirectory { directory in
            let fixture = try await LoopbackFixture.start(in: directory, kind: .dimmableLight)
            let hub = try await Hub(statePath: fixture.hubPath)
            let result = try await fixture.commission(hub: hub)
            let transport = try MatterTransport()
            let client = try await fixture.caseClient(hub, nodeID: result.nodeID, transport: transport)
            _ = try await client.invoke(
                LevelControlCluster.Commands.MoveToLevelWithOnOff(
                    level: 127, transitionTime: .null, optionsMask: [], optionsOverride: []),
                endpoint: 1)
            let onOff = AttributePathIB(endpoint: 1, cluster: OnOffCluster.id.rawValue, attribute: 0x0000)
            let level = AttributePathIB(endpoint: 1, cluster: LevelControlCluster.id.rawValue, attribute: 0x0000)
            var cache = AttributeCache()
            _ = cache.apply(try await client.read([onOff, level]).attributeReports)
            #expect(cache.value(endpoint: 1, cluster: OnOffCluster.id.rawValue, attribute: 0)?.value == .bool(true))
            #expect(
                cache.value(endpoint: 1, cluster: LevelControlCluster.id.rawValue, attribute: 0)?.value
                    == .unsigned(127))
            #expect(fixture.lines.all.contains("[dimmable-light] level 127"))
            #expect(fixture.lines.all.contains("[dimmable-light] ON"))
            await transport.shutdown()
            await fixture.device.shutdown()

            let restarted = try await LoopbackFixture.start(in: directory, kind: .dimmableLight)
            let again = try await Hub(statePath: fixture.hubPath)
            try await again.store.updateReachability(
                of: result.nodeID, addresses: [restarted.address], mrpParameters: nil)
            let secondTransport = try MatterTransport()
            let second = try await restarted.caseClient(again, nodeID: result.nodeID, transport: secondTransport)
            var after = AttributeCache()
            _ = after.apply(try await second.read([onOff, level]).attributeReports)
            #expect(after.value(endpoint: 1, cluster: OnOffCluster.id.rawValue, attribute: 0)?.value == .bool(true))
            #expect(
                after.value(endpoint: 1, cluster: LevelControlCluster.id.rawValue, attribute: 0)?.value
                    == .unsigned(127))
            await secondTransport.shutdown()
            await restarted.device.shutdown()
        }
    }

    private static func temperature(in report: InteractionReport) -> Int16? {
        for case .data(let data) in report.attributeReports
        where data.path.cluster == TemperatureMeasurementCluster.id.rawValue {
            if case .signed(let value) = data.data.value { return Int16(exactly: value) }
        }
        return nil
    }

    private static func events(in report: InteractionReport) -> [EventDataIB] {
        report.eventReports.compactMap { if case .data(let data) = $0 { data } else { nil } }
    }
}
