import CLinux
import Foundation
import HomeAPI
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDevice
import MatterDiscovery
import MatterOnboarding
import MatterPlatform

/// `swift-home-bench scale --nodes N`: a farm of N virtual devices in a child process (this binary again, running
/// `matter-device --count`'s farm), the hub in this one. It commissions all N through the hub (which runs
/// `Hub.concurrentCommissionings` at once), follows them live, measures the hub's idle CPU and latencies, starts the
/// hub again in a fresh process (`ScaleHubProcess`: cold start, memory, start_listening), kills the farm and starts it
/// again, and times each step until every node is online (or offline) in the hub's model.
struct ScaleBenchmark {
    struct Options {
        var nodes = 1000
        /// Below Linux's ephemeral range (32768–60999), so no port of the farm is taken by some client socket.
        var basePort: UInt16 = 21000
        /// What the idle CPU figure is averaged over: a minute holds every node's keep-alive at a 60 s max interval.
        var idleSeconds = 60
        /// `--type light` by default: lights change only when told to, so the idle figure is the hub's own; `--mix`
        /// runs every kind (sensors drift, switches are pressed).
        var farmKinds = ["--type", "light"]

        static let usage =
            "usage: swift-home-bench scale [--nodes N] [--base-port P] [--idle-seconds S] [--mix] [--json]"

        init(arguments: [String]) throws(BenchmarkError) {
            var rest = arguments[...]
            while let option = rest.popFirst() {
                if option == "--mix" {
                    farmKinds = ["--mix"]
                    continue
                }
                guard let value = rest.popFirst(), let number = Int(value), number > 0 else {
                    throw BenchmarkError("\(option) needs a positive number\n\(Self.usage)")
                }
                switch option {
                case "--nodes": nodes = number
                case "--base-port":
                    guard let port = UInt16(exactly: number) else { throw BenchmarkError("--base-port is 1 to 65535") }
                    basePort = port
                case "--idle-seconds": idleSeconds = number
                default: throw BenchmarkError("unknown option \(option)\n\(Self.usage)")
                }
            }
        }
    }

    let options: Options

    func run() async throws -> Report {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let farmArguments =
            [
                "--count", "\(options.nodes)", "--base-port", "\(options.basePort)", "--state", directory + "/farm",
            ] + options.farmKinds
        var report = Report()
        let clock = ContinuousClock()

        var farm = try await FarmProcess.start(arguments: farmArguments, count: options.nodes)
        // A failed step leaves no farm running behind the benchmark.
        do {
            let farmBytesPerDevice = farm.residentBytes() / options.nodes
            report.add(
                "Farm of \(options.nodes): memory per device", "\(kib(farmBytesPerDevice)) KiB",
                key: "farm_bytes_per_device", value: Double(farmBytesPerDevice))

            // Commissioning all at once: the hub runs as many side by side as it allows.
            let hubPath = directory + "/hub"
            let started = clock.now
            try await farm.commissionAll(into: hubPath, farmDirectory: directory + "/farm", named: "farm")
            let commissioned = clock.now - started
            report.add(
                "Commission all \(options.nodes) (the hub's \(Hub.concurrentCommissionings) at a time)",
                seconds(commissioned),
                key: "commission_all_s", value: commissioned.seconds)

            // The hub follows them all.
            var configuration = Home.Configuration(stateDirectory: hubPath)
            configuration.liveness = .seconds(60)
            var served = try await Home.connect(configuration)
            let following = clock.now
            try await served.hub.followEveryNode()
            try await served.hub.model.waitUntil(
                options.nodes, are: .online, within: .seconds(300), after: "the first connections")
            report.add(
                "  then every node online (first connection)", seconds(clock.now - following),
                key: "first_follow_all_online_s", value: (clock.now - following).seconds)
            // Idle: every node subscribed, nothing changing but the keep-alives, one per node per max interval.
            let cpuBefore = processCPUTime()
            try await Task.sleep(for: .seconds(options.idleSeconds / 2))
            let heapBefore = heapBytesInUse()
            try await Task.sleep(for: .seconds(options.idleSeconds - options.idleSeconds / 2))
            let idle = (processCPUTime() - cpuBefore).seconds / Double(options.idleSeconds) * 100
            report.add(
                "Hub's idle CPU over \(options.idleSeconds) s (max interval 60 s)",
                "\(format(idle, decimals: 2)) % of a core",
                key: "idle_cpu_percent_hub", value: idle)
            // A hub runs all day: what its keep-alives leave allocated must be nothing, give or take the allocator's
            // own. Measured from halfway into the idle time (what the first connections left has been freed by then)
            // for as long again, so every node's keep-alive falls inside once.
            try await Task.sleep(for: .seconds(options.idleSeconds / 2))
            let heapGrowth = heapBytesInUse() - heapBefore
            report.add(
                "  heap growth over \(options.idleSeconds) s of it, from halfway", "\(heapGrowth / 1024) KiB",
                key: "idle_heap_growth_kib", value: Double(heapGrowth) / 1024)

            // A command's change reaching a consumer of the hub's model, with every other node live.
            let latencies = try await commandToConsumer(served, samples: min(options.nodes, 50))
            report.add(
                "On/Off command to the change at a model consumer (median of \(latencies.count))",
                milliseconds(latencies[latencies.count / 2]), key: "command_to_consumer_ms_p50",
                value: latencies[latencies.count / 2].microseconds / 1000)

            // A report reaching a types.subscribe consumer with N nodes followed: the home model's own path, measured
            // as the default benchmark does (synthetic reports fed to a fresh model, no device). Not the default
            // benchmark's report_to_consumer_ms_p50, which times a device's report over loopback.
            let (reports, _) = try await reportsToFollowers(followed: options.nodes, reports: 1_000)
            report.add(
                "Synthetic report to a consumer, \(options.nodes) nodes followed (median, the model's path)",
                milliseconds(reports[reports.count / 2]), key: "synthetic_report_to_consumer_ms_p50",
                value: reports[reports.count / 2].microseconds / 1000)

            // Cold start: the hub stops, and starts again on its store in a fresh process, which also gives the
            // memory of a hub holding N live nodes and the time of a Home Assistant's start_listening.
            await served.close()
            let fresh = try await ScaleHubProcess.measure(
                statePath: hubPath, nodes: options.nodes, emptyStatePath: directory + "/empty-hub")
            report.add(
                "Hub restarted (a new process): every node online again",
                seconds(.seconds(fresh.coldStartAllOnlineSeconds)),
                key: "cold_start_all_online_s", value: fresh.coldStartAllOnlineSeconds)
            report.add(
                "  its memory with every node live", "\(format(Double(fresh.residentBytes) / 1_048_576)) MiB",
                key: "hub_rss_mib", value: Double(fresh.residentBytes) / 1_048_576)
            report.add(
                "  a hub with no node, the same way (a third process)",
                "\(format(Double(fresh.emptyHubResidentBytes) / 1_048_576)) MiB",
                key: "hub_empty_rss_mib", value: Double(fresh.emptyHubResidentBytes) / 1_048_576)
            let perNode = (fresh.residentBytes - fresh.emptyHubResidentBytes) / options.nodes
            report.add(
                "  per node, over the hub with no node", "\(kib(perNode)) KiB", key: "hub_bytes_per_node",
                value: Double(perNode))
            let openedPerNode = (fresh.openedBytes - fresh.emptyHubOpenedBytes) / options.nodes
            report.add(
                "    of which the home opened, before any node was reached", "\(kib(openedPerNode)) KiB",
                key: "hub_opened_bytes_per_node", value: Double(openedPerNode))
            let overBareProcess = (fresh.residentBytes - fresh.baselineBytes) / options.nodes
            report.add(
                "  per node, over the process before it opened a hub (its fixed costs spread over the nodes)",
                "\(kib(overBareProcess)) KiB", key: "hub_bytes_per_node_over_bare_process",
                value: Double(overBareProcess))
            report.add(
                "  per node live, marginal (a second fresh process: half the nodes, then all)",
                "\(kib(fresh.marginalBytesPerNode)) KiB", key: "hub_marginal_bytes_per_node",
                value: Double(fresh.marginalBytesPerNode))
            report.add(
                "  start_listening over the Matter-server API, every node",
                milliseconds(.microseconds(Int64(fresh.startListeningMilliseconds * 1000))),
                key: "start_listening_ms", value: fresh.startListeningMilliseconds)

            // This process is the hub again for the farm's steps.
            served = try await Home.connect(configuration)
            try await served.hub.followEveryNode()
            try await served.hub.model.waitUntil(
                options.nodes, are: .online, within: .seconds(300), after: "the hub's second restart")

            // The farm is killed: each node is noticed offline; started again, each comes back.
            let offline = served.hub.model.offlineTimes()
            let killed = clock.now
            farm.kill()
            try await served.hub.model.waitUntil(
                options.nodes, are: .offline, within: .seconds(180), after: "the farm was killed")
            let lastOffline = (await offline.value.values.max() ?? killed) - killed
            report.add(
                "Farm killed: the last node noticed offline", seconds(lastOffline), key: "offline_detected_s_max",
                value: lastOffline.seconds)
            let farmStarted = clock.now
            farm = try await FarmProcess.start(arguments: farmArguments, count: options.nodes)
            try await served.hub.model.waitUntil(
                options.nodes, are: .online, within: .seconds(300), after: "the farm's restart")
            report.add(
                "Farm restarted: every node online again", seconds(clock.now - farmStarted),
                key: "farm_restart_all_online_s", value: (clock.now - farmStarted).seconds)
            await served.close()
            farm.kill()
        } catch {
            farm.kill()
            throw error
        }
        return report
    }

    /// Switches up to `samples` lights one after another, timing each from the command to a model listener seeing
    /// its new OnOff value.
    private func commandToConsumer(_ home: Home, samples: Int) async throws -> [Duration] {
        var latencies: [Duration] = []
        let devices = try await home.devices().list().prefix(samples)
        for device in devices {
            guard let onOff = await device.liveTrait(OnOffTrait.self) else { continue }
            let nodeID = device.address.nodeID
            let changes = home.hub.model.changes(.node(nodeID))
            let started = ContinuousClock.now
            // nil: the changes ended without the switch in them, which is a failure to report, not a latency.
            let seen = Task { () -> ContinuousClock.Instant? in
                for await update in changes {
                    guard case .changes(let list) = update else { continue }
                    for case .attributes(_, _, let values) in list
                    where values.keys.contains(where: { $0.cluster == 6 && $0.attribute == 0 }) {
                        return ContinuousClock.now
                    }
                }
                return nil
            }
            try await onOff.toggle()
            guard let arrived = await seen.value else {
                throw BenchmarkError("node \(nodeID)'s changes ended without its switched OnOff")
            }
            latencies.append(arrived - started)
        }
        guard !latencies.isEmpty else { throw BenchmarkError("no light to switch") }
        return latencies.sorted()
    }
}

/// A fresh directory for one benchmark's farm and hub; the caller removes it.
func temporaryDirectory() throws -> String {
    var template = Array((NSTemporaryDirectory() + "/swift-home-bench-XXXXXX").utf8CString)
    guard let created = mkdtemp(&template) else { throw POSIXError(.EIO) }
    return String(cString: created)
}

/// The farm as a child process: this binary run as `swift-home-bench scale-farm` with `matter-device --count`'s
/// arguments. Its output is read to the end on a thread of its own, so the farm never blocks on a full pipe.
struct FarmProcess {
    /// Held for the farm's life: it exits when this goes (`Lifeline`).
    let process: ChildProcess
    let setups: [DeviceSetup]

    static func start(arguments: [String], count: Int) async throws -> FarmProcess {
        let process = try Lifeline.start(["scale-farm"] + arguments)
        let output = process.output!
        let setups: [DeviceSetup] = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                var setups: [DeviceSetup] = []
                var pending = Data()
                var resumed = false
                let handle = output
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 10) {
                        let line = pending[pending.startIndex..<newline]
                        pending = Data(pending[(newline + 1)...])
                        guard !resumed else { continue }
                        if let setup = try? JSONDecoder().decode(DeviceSetup.self, from: line) {
                            setups.append(setup)
                        } else if line.starts(with: Array("[farm] ".utf8)) {
                            resumed = true
                            continuation.resume(returning: setups)
                        }
                    }
                }
                if !resumed {
                    continuation.resume(throwing: BenchmarkError("the farm exited before its devices ran"))
                }
            }
        }
        guard setups.count == count else {
            throw BenchmarkError("the farm printed \(setups.count) devices, not \(count)")
        }
        return FarmProcess(process: process, setups: setups)
    }

    func residentBytes() -> Int {
        Benchmarks.residentBytes(ofProcess: process.pid)
    }

    /// Commissions every device of the farm onto a hub on `hubPath` at once (the hub runs as many side by side as it
    /// allows), each named "`named` INDEX" in `room`; the hub is closed after, so the one measured next is the only
    /// one.
    func commissionAll(into hubPath: String, farmDirectory: String, named: String, room: String? = nil) async throws {
        let hub = try await Hub(statePath: hubPath)
        let paa = try DeviceStore(directory: farmDirectory + "/0").load()?.paa ?? Data()
        let trustStore = PAATrustStore(certificates: [try X509Certificate(derEncoded: Array(paa))])
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, setup) in setups.enumerated() {
                group.addTask {
                    _ = try await hub.commission(
                        CommissioningRequest(
                            payload: try SetupPayload(parsing: setup.qr),
                            address: .ipv4(IPv4Address(127 << 24 | 1), port: setup.port), trustStore: trustStore),
                        name: "\(named) \(index)", room: room, progress: { _ in })
                }
            }
            try await group.waitForAll()
        }
        await hub.close()
    }

    func kill() {
        process.send(SIGKILL)
        _ = process.waitUntilExit()
    }
}

extension HomeModel {
    enum Connectivity { case online, offline }

    func count(_ connectivity: Connectivity) -> Int {
        snapshot.views.values.filter { view in
            switch (connectivity, view.state) {
            case (.online, .online), (.offline, .offline): true
            default: false
            }
        }.count
    }

    /// Returns once `nodes` nodes reached `connectivity`, woken by the model's changes; fails after `limit`, saying
    /// how many did after `step`.
    func waitUntil(
        _ nodes: Int, are connectivity: Connectivity, within limit: Duration, after step: String
    ) async throws(BenchmarkError) {
        let changes = changes(.home)
        guard count(connectivity) < nodes else { return }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in changes where self.count(connectivity) >= nodes { return }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
        guard count(connectivity) >= nodes else {
            throw BenchmarkError(
                "after \(step), \(count(connectivity)) of \(nodes) nodes were \(connectivity) within \(limit)")
        }
    }

    /// When each node next turns offline, heard from now until every node has.
    func offlineTimes() -> Task<[UInt64: ContinuousClock.Instant], Never> {
        let changes = changes(.home)
        let nodes = snapshot.views.count
        return Task {
            var times: [UInt64: ContinuousClock.Instant] = [:]
            for await update in changes {
                guard case .changes(let list) = update else { continue }
                for case .connectivity(let node, .offline) in list where times[node] == nil {
                    times[node] = ContinuousClock.now
                }
                if times.count >= nodes { break }
            }
            return times
        }
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The resident set of a process (this one by default), from /proc/PID/status.
/// The bytes malloc has handed out and not had back, in this process.
func heapBytesInUse() -> Int {
    Int(mallinfo2().uordblks)
}

func residentBytes(ofProcess pid: Int32 = getpid()) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
}

func seconds(_ duration: Duration) -> String { "\(format(duration.seconds, decimals: 2)) s" }
func kib(_ bytes: Int) -> String { format(Double(bytes) / 1024) }
