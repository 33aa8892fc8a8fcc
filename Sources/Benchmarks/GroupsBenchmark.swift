import Foundation
import HomeAPI
import HomeEngine
import HomeHub
import MatterCertificates
import MatterDevice
import MatterDiscovery
import MatterOnboarding
import MatterPlatform

/// `swift-home-bench groups [--devices N] [--rounds R] [--interface IF]`: N virtual lights (a farm in a child process,
/// hearing their groups on IF) in one room of a hub in this process; the room switched R times with one group message
/// and R times by unicast. For each, the spread between the first and the last light's subscription reporting the
/// change, and the time from the command to the last report. Multicast must reach the farm: run it in a namespace
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

        for unicastOnly in [false, true] {
            var spreads: [Double] = []
            var lasts: [Double] = []
            var unconfirmed = 0
            for round in 0..<options.rounds {
                let result = try await room.send(round.isMultiple(of: 2) ? .on : .off, unicastOnly: unicastOnly)
                let times = result.members.compactMap(\.confirmedAfterMilliseconds)
                unconfirmed += result.members.count - times.count
                guard let first = times.min(), let last = times.max() else { continue }
                spreads.append(last - first)
                lasts.append(last)
            }
            spreads.sort()
            lasts.sort()
            let how = unicastOnly ? "unicast" : "group"
            let label =
                unicastOnly ? "Unicast to each of \(options.devices)" : "One group message to \(options.devices)"
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
}
