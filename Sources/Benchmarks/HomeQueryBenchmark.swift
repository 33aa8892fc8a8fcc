import Foundation
import HomeAPI
import HomeHub
import HomeRecords
import MatterDataModel
import MatterInteraction
import MatterTLV
import Synchronization

/// The Home API's queries over the home model: listing 10,000 devices (2,500 nodes of four lights each) cold and
/// warm, after one rename, and a report reaching a `types.subscribe` consumer when N devices are each followed.
func runHomeQueryBenchmark() async throws -> Report {
    var report = Report()
    try await withHomeOfLights(nodes: 2_500, endpoints: 4) { directory in
        let clock = ContinuousClock()
        let start = clock.now
        let home = try await Home.connect(stateDirectory: directory)
        var count = try await home.devices().list().count
        let cold = (clock.now - start).seconds * 1000
        var samples: [Duration] = []
        for _ in 0..<5 {
            let start = clock.now
            count = try await home.devices().list().count
            samples.append(clock.now - start)
        }
        samples.sort()
        let warm = samples[samples.count / 2].seconds * 1000
        var renames: [Duration] = []
        for index in 0..<5 {
            let device = try await home.devices().list().first { $0.name.hasPrefix("Light ") } ?? nil
            let start = clock.now
            _ = try await device?.setName("Renamed \(index)")
            count = try await home.devices().list().count
            renames.append(clock.now - start)
        }
        renames.sort()
        let renamed = renames[renames.count / 2].seconds * 1000
        report.add(
            "Home.connect and the first devices().list(), \(count) devices", "\(format(cold, decimals: 1)) ms",
            key: "open_and_list_10000_devices_ms", value: cold)
        report.add(
            "Home devices().list(), \(count) devices", "\(format(warm, decimals: 3)) ms",
            key: "list_10000_devices_ms", value: warm)
        report.add(
            "A device renamed, then devices().list(), \(count) devices", "\(format(renamed, decimals: 2)) ms",
            key: "rename_and_list_10000_devices_ms", value: renamed)
    }
    for followed in [10, 100, 1_000] {
        let (latencies, cpu) = try await reportsToFollowers(followed: followed, reports: 1_000)
        report.add(
            "Report to a types.subscribe consumer, \(followed) devices followed (median)",
            "\(format(latencies[latencies.count / 2].microseconds / 1000, decimals: 3)) ms",
            key: "report_to_consumer_ms_p50_n\(followed)", value: latencies[latencies.count / 2].microseconds / 1000)
        report.add(
            "  CPU per report", "\(format(cpu, decimals: 1)) µs", key: "cpu_per_report_us_n\(followed)", value: cpu)
    }
    let events = try await eventsToSubscriber(presses: 1_000)
    report.add(
        "Switch press event to an events.subscribe consumer (median)",
        "\(format(events[events.count / 2].microseconds / 1000, decimals: 3)) ms", key: "event_to_consumer_ms_p50",
        value: events[events.count / 2].microseconds / 1000)
    return report
}

/// One node's InitialPress events handed to the home model as its live connection hands them over, each timed until
/// the device's `events.subscribe(SwitchTrait.InitialPressEvent.self)` consumer has it; sorted.
private func eventsToSubscriber(presses: Int) async throws -> [Duration] {
    var latencies: [Duration] = []
    // One Generic Switch (0x000F).
    try await withHomeOfLights(nodes: 1, endpoints: 1, deviceType: 0x000F) { directory in
        let home = try await Home.connect(stateDirectory: directory)
        let model = home.hub.model
        guard let device = try await home.devices().list().first else { return }
        let (arrivals, arrived) = AsyncStream<(UInt64, ContinuousClock.Instant)>.makeStream()
        var followed = model.changes(.node(1)).makeAsyncIterator()
        let consumer = Task {
            do {
                for try await press in device.events.subscribe(SwitchTrait.InitialPressEvent.self) {
                    arrived.yield((press.number, ContinuousClock.now))
                }
            } catch {}
        }
        // The subscriber listens before it tries to follow the node, which leaves the node's view offline here (no
        // address): once that change is heard, presses reach it.
        _ = await followed.next()
        var waiting = arrivals.makeAsyncIterator()
        let press = TLVElement(SwitchCluster.Events.InitialPress(newPosition: 1).tlvValue())
        for number in 1...UInt64(presses) {
            let event = NodeEvent(
                endpoint: 1, cluster: SwitchCluster.id, event: SwitchCluster.Events.InitialPress.id, number: number,
                priority: .info, timestamp: .systemMilliseconds(number), data: press)
            let view = model.view(of: 1) ?? HomeModel.NodeView(cache: AttributeCache(), state: .online)
            let sent = ContinuousClock.now
            model.nodeReported(1, view: view, changed: [], events: [event])
            while let (heard, at) = await waiting.next() {
                if heard == number {
                    latencies.append(at - sent)
                    break
                }
            }
        }
        consumer.cancel()
        await home.disconnect()
    }
    return latencies.sorted()
}

/// A home of `nodes` commissioned nodes of `endpoints` On/Off lights (or `deviceType`) each, in a temporary state directory.
private func withHomeOfLights(
    nodes: Int, endpoints: UInt16, deviceType: UInt32 = 0x0100, _ body: (String) async throws -> Void
) async throws {
    let directory = NSTemporaryDirectory() + "/swift-home-bench-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = try await HubStore(directory: StateDirectory(creating: directory))
    for index in 1...nodes {
        let nodeID = UInt64(index)
        try await store.beginCommissioning(
            nodeID: nodeID, vendorID: 0xFFF1, productID: 0x8000,
            attestation: NodeRecord.Attestation(verdict: "benchmark", trusted: true))
        try await store.setEndpoints(
            (1...endpoints).map { EndpointDeviceType(endpoint: $0, deviceType: deviceType, revision: 3) }, of: nodeID)
        try await store.markCommissioned(nodeID)
        try await store.addDevices(of: nodeID, named: "Light \(index)", inRoom: index.isMultiple(of: 2) ? "Hall" : nil)
    }
    try await body(directory)
}

/// `followed` one-light nodes, each followed by its own `types.subscribe(OnOffLightDeviceType.self)`; `reports`
/// OnOff reports handed to the home model as a node's live connection hands them over, round the nodes, each timed
/// until its consumer has the new value. Returns the sorted latencies and the process CPU time per report in µs.
func reportsToFollowers(followed: Int, reports: Int) async throws -> ([Duration], Double) {
    var result: ([Duration], Double) = ([], 0)
    try await withHomeOfLights(nodes: followed, endpoints: 1) { directory in
        let home = try await Home.connect(stateDirectory: directory)
        let model = home.hub.model
        let (arrivals, arrived) = AsyncStream<(UInt64, ContinuousClock.Instant)>.makeStream()
        var consumers: [Task<Void, Never>] = []
        for device in try await home.devices().list() {
            // `<node ID, 16 hex digits>-<endpoint>`.
            let nodeID = UInt64(device.id.prefix(16), radix: 16) ?? 0
            consumers.append(
                Task {
                    do {
                        for try await _ in device.types.subscribe(OnOffLightDeviceType.self) {
                            arrived.yield((nodeID, ContinuousClock.now))
                        }
                    } catch {}
                })
        }
        var waiting = arrivals.makeAsyncIterator()
        for _ in 0..<followed { _ = await waiting.next() }  // each consumer's first value
        let nodes = Array(1...UInt64(followed))
        var latencies: [Duration] = []
        let cpuBefore = processCPUTime()
        for index in 0..<reports {
            let nodeID = nodes[index % nodes.count]
            var cache = model.view(of: nodeID)?.cache ?? AttributeCache()
            let changed = cache.apply([
                .data(
                    AttributeDataIB(
                        dataVersion: UInt32(index + 2),
                        path: AttributePathIB(endpoint: 1, cluster: 0x0006, attribute: 0),
                        data: TLVElement(.bool(index / nodes.count % 2 == 0))))
            ])
            let state = model.view(of: nodeID)?.state ?? .online
            let sent = ContinuousClock.now
            model.nodeReported(nodeID, view: HomeModel.NodeView(cache: cache, state: state), changed: changed)
            while let (from, at) = await waiting.next() {
                if from == nodeID {
                    latencies.append(at - sent)
                    break
                }
            }
        }
        let cpu = (processCPUTime() - cpuBefore).seconds / Double(reports) * 1e6
        consumers.forEach { $0.cancel() }
        await home.disconnect()
        result = (latencies.sorted(), cpu)
    }
    return result
}
