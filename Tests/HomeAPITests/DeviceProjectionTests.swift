import HomeRecords
import MatterInteraction
import MatterTLV
import Testing

@testable import HomeAPI
@testable import HomeEngine
@testable import HomeHub
@testable import HubWire

@Suite struct DeviceProjectionTests {
    static func report(onOff: Bool, version: UInt32, to nodeID: UInt64, in model: HomeModel) {
        var cache = model.view(of: nodeID)?.cache ?? AttributeCache()
        let changed = cache.apply([
            .data(
                AttributeDataIB(
                    dataVersion: version, path: AttributePathIB(endpoint: 1, cluster: 0x0006, attribute: 0),
                    data: TLVElement(.bool(onOff))))
        ])
        let state = model.view(of: nodeID)?.state ?? .online
        model.nodeReported(nodeID, view: HomeModel.NodeView(cache: cache, state: state), changed: changed)
    }

    /// The point of the home model: an app following every device pays nothing in the store for a report, and each
    /// report reaches its own device's follower.
    @Test func aThousandFollowedDevicesReadNothingFromTheStoreWhileTheyReport() async throws {
        try await withHome { home, store, _ in
            let count = 1_000
            for index in 1...count {
                try await addNode(store, UInt64(index), endpoints: [(1, 0x0100)], named: "Light \(index)")
            }
            let devices = try await home.devices().list()
            #expect(devices.count == count)
            let followers = devices.map { device in
                (
                    device.types.nodeID,
                    Recorder { record in
                        for try await light in device.types.subscribe(OnOffLightDeviceType.self) {
                            record(light.matterTraits.onOffTrait?.attributes.onOff)
                        }
                    }
                )
            }
            for (_, follower) in followers { _ = await follower.values(count: 1) }

            let model = home.context.model
            let statements = (home.context.store.database.statementsRun, store.database.statementsRun)
            for (nodeID, _) in followers { Self.report(onOff: true, version: 2, to: nodeID, in: model) }
            for (_, follower) in followers { await follower.until { $0.last == true } }
            #expect(followers.allSatisfy { $0.1.values == [nil, true] })
            // A read per report would be a thousand statements. The hub's attempts to reach these nodes (no address
            // known) read the store on their own schedule, so a few may land meanwhile.
            #expect(home.context.store.database.statementsRun - statements.0 < count / 10)
            #expect(store.database.statementsRun == statements.1)
            for (_, follower) in followers { follower.cancel() }
        }
    }

    @Test func aReportChangesNoDeviceValueSoTheHomesQueriesStayQuiet() async throws {
        try await withHome { home, store, _ in
            try await addNode(store, 0x11, endpoints: [(1, 0x0100)], named: "Lamp")
            try await addNode(store, 0x22, endpoints: [(1, 0x0100)], named: "Desk")
            let batches = Recorder { record in for try await value in home.devices().batched() { record(value) } }
            _ = await batches.values(count: 1)
            // Connectivity is part of a device: the lamp coming online is a batch.
            let model = home.context.model
            model.nodeReported(0x11, view: HomeModel.NodeView(cache: AttributeCache(), state: .online), changed: [])
            _ = await batches.values(count: 2)
            Self.report(onOff: true, version: 2, to: 0x11, in: model)
            let desk = DeviceID(nodeID: 0x22, endpoint: 1)
            try await store.renameDevice(desk, to: "Desk lamp")
            // The rename is the next batch: the report before it emitted nothing.
            let values = await batches.values(count: 3)
            #expect(values.count == 3)
            #expect(values.last?.first { $0.id == desk.description }?.name == "Desk lamp")
            #expect(values.last?.first { $0.id != desk.description } == values[1].first { $0.id != desk.description })
            batches.cancel()
        }
    }
}
