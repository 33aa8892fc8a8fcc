import Foundation
import HomeAPI
import HomeEngine
import HomeHub
import HomeRecords
import MatterCertificates
import MatterDataModel
import MatterDevice
import MatterDiscovery
import MatterInteraction
import MatterOnboarding
import MatterPlatform

/// `swift-home-bench groups [--devices N] [--rounds R] [--interface IF]`: N virtual lights (a farm in a child process,
/// hearing their groups on IF) in one room of a hub in this process; the room switched R times with one group message,
/// R times by unicast to all at once (what a room command does for a member without Groups), and R times by one
/// unicast command per light, one after another (a command per device: what a home without groups does). For each,
/// the spread between the first and the last light's subscription reporting the change, and the time from the first
/// command to the last report. Multicast must reach the farm: run it in a namespace
/// whose `lo` carries it (`ip link set lo multicast on`; `ip -6 route add local ff00::/8 dev lo table local`).
struct GroupsBenchmark {
    struct Options {
        var devices = 20
        var rounds = 20
        var basePort: UInt16 = 21_000
        var interface = "lo"

        static let usage = "usage: swift-home-bench groups [--devices N] [--rounds R] [--base-port P] [--interface IF]"

        init(arguments: [String]) throws {
            var rest = arguments[...]
            while let option = rest.popFirst() {
                guard let value = rest.popFirst() else {
                    throw BenchmarkError("\(option) needs a value\n\(Self.usage)")
                }
                switch option {
                case "--devices":
                    guard let number = Int(value), (2...1000).contains(number) else {
                        throw BenchmarkError("--devices is 2 to 1000")
                    }
                    devices = number
                case "--rounds":
                    guard let number = Int(value), (1...1000).contains(number) else {
                        throw BenchmarkError("--rounds is 1 to 1000")
                    }
                    rounds = number
                case "--base-port":
                    guard let port = UInt16(value), port > 0 else { throw BenchmarkError("--base-port is 1 to 65535") }
                    basePort = port
                case "--interface": interface = value
                default: throw BenchmarkError("unknown option \(option)\n\(Self.usage)")
                }
            }
        }
    }

    let options: Options

    func run() async throws -> Report {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var report = Report()
        let farm = try await FarmProcess.start(
            arguments: [
                "--count", "\(options.devices)", "--base-port", "\(options.basePort)", "--state", directory + "/farm",
                "--type", "light", "--interface", options.interface,
            ], count: options.devices)
        defer { farm.kill() }

        let hubPath = directory + "/hub"
        try await farm.commissionAll(into: hubPath, farmDirectory: directory + "/farm", named: "light")

        var configuration = Home.Configuration(stateDirectory: hubPath, networkInterfaces: [options.interface])
        configuration.liveness = .seconds(60)
        let home = try await Home.connect(configuration)
        defer { Task { await home.disconnect() } }
        try await home.hub.followEveryNode()
        try await home.hub.model.waitUntil(
            options.devices, are: .online, within: .seconds(120), after: "the first connections")
        let room = try await home.createRoom(name: "Bench")
        for device in try await home.devices().list() { _ = try await home.move(device: device, to: room) }

        // Every light is given the room's group in the background; the first round that reaches all by group starts
        // the measured ones.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)
        var lastSkip: String?
        while true {
            let result = try await room.send(.off)
            lastSkip = result.groupMessageSkipped
            if result.members.allSatisfy({ $0.via == "group" }) { break }
            guard clock.now < deadline else {
                throw BenchmarkError(
                    "the lights never all held the room's group within 120 s"
                        + (lastSkip.map {
                            " (no group message: \($0); run this in a namespace whose lo carries multicast)"
                        } ?? ""))
            }
            try await Task.sleep(for: .milliseconds(500))
        }

        let lights = try await home.devices().list().sorted { $0.id < $1.id }
        for way in ["group", "unicast", "unicast_one_by_one"] {
            var spreads: [Double] = []
            var lasts: [Double] = []
            var unconfirmed = 0
            for round in 0..<options.rounds {
                let command: GroupCommand.Command = round.isMultiple(of: 2) ? .on : .off
                let times: [Double]
                if way == "unicast_one_by_one" {
                    times = try await Self.oneByOne(command, to: lights, in: home)
                } else {
                    let result = try await room.send(command, unicastOnly: way == "unicast")
                    times = result.members.compactMap(\.confirmedAfterMilliseconds)
                }
                unconfirmed += lights.count - times.count
                guard let first = times.min(), let last = times.max() else { continue }
                spreads.append(last - first)
                lasts.append(last)
            }
            spreads.sort()
            lasts.sort()
            let how = way
            let label =
                switch way {
                case "group": "One group message to \(options.devices)"
                case "unicast": "Unicast to all \(options.devices) at once"
                default: "One unicast command per light, one after another"
                }
            guard !spreads.isEmpty else { throw BenchmarkError("no round of \(how) was confirmed") }
            report.add(
                "\(label): spread from the first light's report to the last (median of \(spreads.count))",
                format(spreads[spreads.count / 2]) + " ms", key: "\(how)_spread_ms_p50",
                value: spreads[spreads.count / 2])
            report.add(
                "  command to the last light's report (median)", format(lasts[lasts.count / 2]) + " ms",
                key: "\(how)_last_confirmation_ms_p50", value: lasts[lasts.count / 2])
            report.add(
                "  lights that did not confirm, over \(options.rounds) rounds", "\(unconfirmed)",
                key: "\(how)_unconfirmed", value: Double(unconfirmed))
        }
        return report
    }

    /// Sends `command` to each light in turn, each once the one before answered, and returns when each light's
    /// subscription reported the change, in milliseconds after the first command (3 s at most).
    private static func oneByOne(
        _ command: GroupCommand.Command, to lights: [HomeDevice], in home: Home
    ) async throws -> [Double] {
        let on = command == .on
        let changes = home.hub.model.changes(.all)
        let wanted = Set(lights.map(\.id))
        let clock = ContinuousClock()
        let started = clock.now
        let watcher = Task { () -> [Double] in
            var seen: [String: Double] = [:]
            for await update in changes {
                guard case .changes(let changes) = update else { continue }
                for case .attributes(let nodeID, let endpoint, let values) in changes {
                    let id = DeviceID(nodeID: nodeID, endpoint: endpoint).description
                    let path = ConcreteAttributePath(
                        endpoint: endpoint, cluster: OnOffCluster.id.rawValue, attribute: 0)
                    guard wanted.contains(id), seen[id] == nil, values[path]??.value == .bool(on) else { continue }
                    let elapsed = started.duration(to: clock.now)
                    seen[id] = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
                    if seen.count == wanted.count { return Array(seen.values) }
                }
            }
            return Array(seen.values)
        }
        for light in lights {
            guard let trait = await light.liveTrait(OnOffTrait.self, waitingForFirstContact: false) else { continue }
            if on { try await trait.on() } else { try await trait.off() }
        }
        let timeout = Task {
            try? await Task.sleep(for: .seconds(3))
            watcher.cancel()
        }
        let times = await watcher.value
        timeout.cancel()
        return times
    }
}
