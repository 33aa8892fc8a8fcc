import Foundation
import HomeHub
import MatterDataModel
import MatterNode
import MatterOTA
import MatterPlatform
import Synchronization

/// Firmware updates served by the hub (issue #38's figures): a farm of `devices` virtual lights at version 1 in a
/// process of its own (so this process's CPU is the hub's alone), an image of `imageBytes` for version 2 in the hub's
/// folder. One light updated alone gives the transfer rate (1024-byte blocks, one per round trip over loopback); then
/// every light is told at once, and the hub serves `OTAProvider.transfersAtOnce` at a time, telling the next light
/// as one ends: the hub's CPU over the whole, and per MiB served.
struct OTABenchmark {
    var devices = 10
    var imageBytes = 1 << 20
    var basePort: UInt16 = 24_000

    private typealias Requestor = OtaSoftwareUpdateRequestorCluster

    func run() async throws -> Report {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("swift-home-bench-ota-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let farm = try await FarmProcess.start(
            arguments: [
                "--count", "\(devices)", "--base-port", "\(basePort)", "--type", "light", "--software-version", "1",
                "--state", directory + "/farm",
            ], count: devices)
        defer { farm.kill() }
        // A transfer that never ends would hold the benchmark for ever: five minutes is far past ten 1 MiB transfers.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(300))
            FileHandle.standardError.write(Data("benchmark failed: the updates did not end within 300 s\n".utf8))
            exit(1)
        }
        defer { watchdog.cancel() }
        try await farm.commissionAll(into: directory + "/hub", farmDirectory: directory + "/farm", named: "Light")
        let hub = try await Hub(statePath: directory + "/hub")
        defer { Task { await hub.close() } }
        let image = try OTAImage(
            payload: (0..<imageBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }, vendorID: 0xFFF1, productID: 0x8000,
            softwareVersion: 2, softwareVersionString: "2.0-bench")
        let path = directory + "/v2.ota"
        try Data(image.encoded).write(to: URL(fileURLWithPath: path))
        try await hub.updates.images.add(fileAt: path)
        let link = try await hub.link()
        let nodes = try await hub.store.nodes().map(\.nodeID)
        let events = hub.updates.events()
        let ended = EndedTransfers()
        let watcher = Task {
            var firstBlock: [UInt64: ContinuousClock.Instant] = [:]
            for await event in events {
                switch event {
                case .transferred(let nodeID, _, _) where firstBlock[nodeID] == nil:
                    firstBlock[nodeID] = .now
                case .transferEnded(let nodeID, let end):
                    ended.add(nodeID, end, since: firstBlock[nodeID])
                default: break
                }
            }
        }
        defer { watcher.cancel() }

        // One alone: the rate.
        try await announce(to: nodes[0], hub: hub, over: link)
        let alone = try await ended.wait(for: 1)
        var report = Report()
        let bytes = Double(image.encoded.count)
        let rate = bytes / alone.seconds / Double(1 << 20)
        report.add(
            "One transfer of a \(imageBytes >> 10) KiB image over loopback (1024-byte blocks)",
            "\(format(rate, decimals: 2)) MiB/s", key: "ota_transfer_mib_per_s", value: rate)

        // The rest, two at a time: each light told as a place frees.
        let cpuBefore = processCPUTime()
        let started = ContinuousClock.now
        var waiting = Array(nodes.dropFirst())
        var told = 0
        while told < OTAProvider.transfersAtOnce, let next = waiting.first {
            waiting.removeFirst()
            try await announce(to: next, hub: hub, over: link)
            told += 1
        }
        var done = 1
        while done < nodes.count {
            _ = try await ended.wait(for: done + 1)
            done += 1
            if let next = waiting.first {
                waiting.removeFirst()
                try await announce(to: next, hub: hub, over: link)
            }
        }
        let wall = ContinuousClock.now - started
        let cpu = processCPUTime() - cpuBefore
        let served = bytes * Double(nodes.count - 1) / Double(1 << 20)
        report.add(
            "\(nodes.count - 1) more, \(OTAProvider.transfersAtOnce) at a time: all served in",
            "\(format(wall.seconds, decimals: 2)) s", key: "ota_batch_seconds", value: wall.seconds)
        let percent = cpu.seconds / wall.seconds * 100
        report.add(
            "  the hub's CPU meanwhile", "\(format(percent, decimals: 1)) % of a core", key: "ota_hub_cpu_percent",
            value: percent)
        let perMiB = cpu.seconds * 1000 / served
        report.add(
            "  the hub's CPU per MiB served", "\(format(perMiB, decimals: 1)) ms", key: "ota_hub_cpu_ms_per_mib",
            value: perMiB)
        let failures = ended.failures
        guard failures.isEmpty else { throw BenchmarkError("transfers failed: \(failures)") }
        return report
    }

    /// The hub tells the light an update is waiting, over a CASE session from its own node.
    private func announce(to nodeID: UInt64, hub: Hub, over link: HubLink) async throws {
        let session = try await hub.establishSession(to: nodeID, interfaces: [], over: link.transport)
        let client = link.client(of: session.session, peerParameters: session.peerParameters)
        _ = try await client.invoke(
            Requestor.Commands.AnnounceOTAProvider(
                providerNodeID: hub.authority.hubNodeID, vendorID: 0xFFF1, announcementReason: .updateAvailable,
                endpoint: 0), endpoint: 0)
    }
}

/// The transfers that ended, each with how long it took from its first block.
private final class EndedTransfers: Sendable {
    private struct State {
        var count = 0
        var failures: [String] = []
        var last: Duration = .zero
        var waiters: [(count: Int, continuation: CheckedContinuation<Duration, Never>)] = []
    }

    private let state = Mutex(State())

    func add(_ nodeID: UInt64, _ end: BDXExchange.End, since first: ContinuousClock.Instant?) {
        let took = first.map { ContinuousClock.now - $0 } ?? .zero
        let ready = state.withLock { state -> [CheckedContinuation<Duration, Never>] in
            state.count += 1
            state.last = took
            if end != .finished { state.failures.append("node \(nodeID): \(end)") }
            let ready = state.waiters.filter { $0.count <= state.count }.map(\.continuation)
            state.waiters.removeAll { $0.count <= state.count }
            return ready
        }
        for continuation in ready { continuation.resume(returning: took) }
    }

    var failures: [String] { state.withLock { $0.failures } }

    /// Once `count` transfers have ended: how long the last one took.
    func wait(for count: Int) async throws -> Duration {
        let took = await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Duration? in
                if state.count >= count { return state.last }
                state.waiters.append((count, continuation))
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
        guard failures.isEmpty else { throw BenchmarkError("transfers failed: \(failures)") }
        return took
    }
}
