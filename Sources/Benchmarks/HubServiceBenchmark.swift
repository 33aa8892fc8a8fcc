import Foundation
import HomeAPI
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDataModel
import MatterDevice
import MatterDiscovery
import MatterPlatform
import MatterTLV

/// The hub serving its home to a client over the local socket: a virtual light on loopback, commissioned, the
/// hub's `Home` (this process, serving) and a client `Home` attached to it (in this process too, through the socket
/// all the same: framing, JSON, the mirror). `hub_command_rtt_ms_p50` is an On or Off from the client to the
/// device's answer back at the client, over the hub's one live session (no CASE per command);
/// `report_to_client_ms_p50` is an attribute change from the hub's model to the client's mirror.
func runHubServiceBenchmark() async throws -> Report {
    var template = Array((NSTemporaryDirectory() + "/swift-home-bench-hub-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
    let directory = String(cString: created)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let store = DeviceStore(directory: directory + "/device")
    let state = try store.loadOrCreate(DeviceSettings(kind: .light, passcode: 20202021, discriminator: 3840))
    let device = try VirtualDevice(store: store, state: state, port: 0, log: { _ in })
    try await device.start()
    let hub = try await Hub(statePath: directory + "/hub")
    _ = try await hub.commission(
        CommissioningRequest(
            payload: device.setupPayload, address: .ipv4(IPv4Address(127 << 24 | 1), port: device.port),
            trustStore: PAATrustStore(certificates: [try X509Certificate(derEncoded: device.attestation.paa)])),
        name: "lamp", room: nil, progress: { _ in })
    await hub.close()
    let served = try await Home.connect(stateDirectory: directory + "/hub")
    try await served.hub.followEveryNode()
    let client = try await Home.connect(stateDirectory: directory + "/hub")
    guard client.isAttachedToHub,
        let lamp = try await client.devices().list().first,
        let onOff = await lamp.liveTrait(OnOffTrait.self)
    else { throw HomeError(.internal, "the benchmark's client did not attach to its hub") }

    // Each change's arrival at the hub's model and at the client's mirror, by its value's sequence.
    let arrivals = ArrivalTimes()
    let nodeID = lamp.address.nodeID
    let hubSide = Task { await arrivals.follow(served.hub.model, side: 0, nodeID: nodeID) }
    let clientSide = Task { await arrivals.follow(client.hub.model, side: 1, nodeID: nodeID) }
    let clock = ContinuousClock()
    var commands: [Duration] = []
    let rounds = 200
    for round in 0..<rounds {
        let on = round.isMultiple(of: 2)
        await arrivals.begin(round: round, value: on)
        let started = clock.now
        if on { try await onOff.on() } else { try await onOff.off() }
        commands.append(clock.now - started)
        await arrivals.waitForBothSides(within: .milliseconds(400))
    }
    hubSide.cancel()
    clientSide.cancel()
    // Each round's change paired with itself on both sides; one either side missed is a failure, not a pair.
    let seen = await arrivals.seen
    guard seen.hub == rounds, seen.client == rounds else {
        throw HomeError(
            .internal,
            "of \(rounds) changes the hub's model saw \(seen.hub) and the client's mirror \(seen.client) within 400 ms each"
        )
    }
    commands.sort()
    // The same commands from the hub's own Home: what the socket adds is the difference.
    var embedded: [Duration] = []
    if let own = try await served.devices().list().first, let ownOnOff = await own.liveTrait(OnOffTrait.self) {
        for round in 0..<rounds {
            let started = clock.now
            if round.isMultiple(of: 2) { try await ownOnOff.on() } else { try await ownOnOff.off() }
            embedded.append(clock.now - started)
        }
    }
    embedded.sort()
    let reports = await arrivals.latencies().sorted()
    await served.close()
    await device.shutdown()

    var report = Report()
    report.add(
        "On/Off from a client through the hub's socket to the device and back (median of \(rounds))",
        milliseconds(commands[commands.count / 2]), key: "hub_command_rtt_ms_p50",
        value: commands[commands.count / 2].microseconds / 1000)
    report.add(
        "  90th percentile", milliseconds(commands[commands.count * 9 / 10]), key: "hub_command_rtt_ms_p90",
        value: commands[commands.count * 9 / 10].microseconds / 1000)
    if !embedded.isEmpty {
        report.add(
            "  the same from the hub's own Home, no socket (median)", milliseconds(embedded[embedded.count / 2]),
            key: "embedded_command_rtt_ms_p50", value: embedded[embedded.count / 2].microseconds / 1000)
    }
    if !reports.isEmpty {
        report.add(
            "Attribute change, hub's model to the client's mirror (median of \(reports.count))",
            milliseconds(reports[reports.count / 2]), key: "report_to_client_ms_p50",
            value: reports[reports.count / 2].microseconds / 1000)
    }
    return report
}

/// When each round's OnOff change reached each side: the first change to the round's value after the round began.
private actor ArrivalTimes {
    private var times: [[Int: ContinuousClock.Instant]] = [[:], [:]]
    private var round = -1
    private var expected: Bool?
    private var waiter: CheckedContinuation<Void, Never>?
    private var lastWaiterID = 0

    /// How many rounds each side saw.
    var seen: (hub: Int, client: Int) { (times[0].count, times[1].count) }

    /// A round begins: the change to `value` is its own.
    func begin(round: Int, value: Bool) {
        self.round = round
        expected = value
    }

    func follow(_ model: HomeModel, side: Int, nodeID: UInt64) async {
        for await update in model.changes(.node(nodeID)) {
            guard case .changes(let changes) = update else { continue }
            for case .attributes(_, _, let values) in changes {
                let onOff = values.first { $0.key.cluster == 6 && $0.key.attribute == 0 }?.value
                guard case .bool(let value)? = onOff?.value, value == expected, times[side][round] == nil else {
                    continue
                }
                times[side][round] = ContinuousClock.now
                if times[0][round] != nil, times[1][round] != nil {
                    waiter?.resume()
                    waiter = nil
                }
            }
        }
    }

    /// Returns once both sides have seen this round's change, or after `limit`.
    func waitForBothSides(within limit: Duration) async {
        guard times[0][round] == nil || times[1][round] == nil else { return }
        lastWaiterID += 1
        let id = lastWaiterID
        let timeout = Task {
            try? await Task.sleep(for: limit)
            self.expire(id)
        }
        await withCheckedContinuation { waiter = $0 }
        timeout.cancel()
    }

    private func expire(_ id: Int) {
        guard id == lastWaiterID else { return }
        waiter?.resume()
        waiter = nil
    }

    /// Hub's model to the client's mirror, round by round.
    func latencies() -> [Duration] {
        times[0].compactMap { round, hub in times[1][round].map { $0 - hub } }
    }
}
