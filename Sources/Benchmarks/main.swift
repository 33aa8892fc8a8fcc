import Foundation
import MatterCrypto
import MatterDevice
import MatterDiscovery
import MatterPlatform

// swift run -c release swift-home-bench [--json]                codecs, crypto, the Home API's device query, live connections
// swift-home-bench commission --paa-trust-store DIR [--interface IF] [ADDRESS]:PORT=CODE | CODE…
//                                                                commissioning and ping against real devices
// swift-home-bench scale [--nodes N] [--mix] [--idle-seconds S]   a farm of N devices on one hub
// swift-home-bench btp                                           BTP's engine alone (also in the default run)
// swift-home-bench ble [--rounds R]                              a device fresh from its box commissioned over BLE
//                                                                through the BLE proxy protocol, each step
// swift-home-bench groups [--devices N] [--rounds R]              a room of N lights: one group message against unicast
//                                                                (in a namespace whose lo carries multicast)
// --json prints one JSON object of the named figures instead of the table, for comparing runs.
var arguments = Array(CommandLine.arguments.dropFirst())
let json = arguments.contains("--json")
arguments.removeAll { $0 == "--json" }

func emit(_ reports: [(title: String?, report: Report)]) {
    if json {
        let figures = reports.flatMap(\.report.figures)
        let body = figures.map { "\"\($0.key)\":\(($0.value * 1000).rounded() / 1000)" }.joined(separator: ",")
        print("{" + body + "}")
    } else {
        for (title, report) in reports {
            if let title { print(title) }
            report.print()
        }
    }
}
if arguments.first == "ble" {
    // swift-home-bench ble [--rounds R] [--json].
    OpenSSLProcess.keepStateUntilExit()
    var rounds = 10
    if let index = arguments.firstIndex(of: "--rounds"), index + 1 < arguments.count,
        let given = Int(arguments[index + 1]),
        given > 0
    {
        rounds = given
    }
    do {
        emit([(nil, try await runBLECommissioningBenchmark(rounds: rounds))])
    } catch {
        FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if arguments.first == "ota" {
    // Firmware updates served by the hub: swift-home-bench ota [--json].
    OpenSSLProcess.keepStateUntilExit()
    do {
        emit([(nil, try await OTABenchmark().run())])
    } catch {
        FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
        exit(1)
    }
    exit(0)
}
if arguments.first == "btp" {
    // BTP's engine alone: swift-home-bench btp [--json].
    emit([(nil, try runBTPBenchmark())])
    exit(0)
}
if arguments.first == "scale-farm" {
    // The scale benchmark's farm, in a process of its own: matter-device --count's arguments and output.
    OpenSSLProcess.keepStateUntilExit()
    Lifeline.exitWhenTheParentGoes()
    guard case .farm(let farm) = try? DeviceCommandLine(arguments: Array(arguments.dropFirst())) else {
        FileHandle.standardError.write(Data("scale-farm takes matter-device --count's arguments\n".utf8))
        exit(2)
    }
    do {
        try await farm.run { line in
            let bytes = Array((line + "\n").utf8)
            _ = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        }
    } catch {
        FileHandle.standardError.write(Data("farm failed: \(error)\n".utf8))
        exit(1)
    }
} else if arguments.first == "scale-hub" {
    // The scale benchmark's cold start, in a fresh process: STATE NODES; one JSON object of figures.
    Lifeline.exitWhenTheParentGoes()
    guard arguments.count == 3 || arguments.count == 4 && arguments[3] == "--marginal", let nodes = Int(arguments[2])
    else {
        FileHandle.standardError.write(Data("scale-hub takes STATE NODES [--marginal]\n".utf8))
        exit(2)
    }
    do {
        if arguments.count == 4 {
            let bytes = try await ScaleHubProcess.measureMarginal(statePath: arguments[1], nodes: nodes)
            FileHandle.standardOutput.write(Data("\(bytes)".utf8))
        } else {
            let figures = try await ScaleHubProcess.run(statePath: arguments[1], nodes: nodes)
            FileHandle.standardOutput.write(try JSONEncoder().encode(figures))
        }
    } catch {
        FileHandle.standardError.write(Data("cold-start hub failed: \(error)\n".utf8))
        exit(1)
    }
} else if arguments.first == "groups" {
    do {
        let options = try GroupsBenchmark.Options(arguments: Array(arguments.dropFirst()))
        emit([("A room of \(options.devices) lights:", try await GroupsBenchmark(options: options).run())])
    } catch {
        FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
        exit(1)
    }
} else if arguments.first == "scale" {
    do {
        let options = try ScaleBenchmark.Options(arguments: Array(arguments.dropFirst()))
        emit([("\(options.nodes) nodes on one hub:", try await ScaleBenchmark(options: options).run())])
    } catch {
        FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
        exit(1)
    }
} else if arguments.first == "commission" {
    let usage =
        "usage: swift-home-bench commission --paa-trust-store DIR [--interface NAME…] [ADDRESS]:PORT=CODE | CODE…\n"
    var trustStore: String?
    var interfaces: [String] = []
    var devices: [(address: SocketAddress?, code: String)] = []
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
        if argument == "--paa-trust-store", let path = rest.popFirst() {
            trustStore = path
        } else if argument == "--interface", let name = rest.popFirst() {
            interfaces.append(name)
        } else if let equals = argument.firstIndex(of: "="),
            let close = argument.firstIndex(of: "]"), argument.hasPrefix("["),
            let address = IPv6Address(String(argument[argument.index(after: argument.startIndex)..<close])),
            let port = UInt16(argument[argument.index(close, offsetBy: 2)..<equals])
        {
            devices.append((.ipv6(address, port: port), String(argument[argument.index(after: equals)...])))
        } else if !argument.hasPrefix("-"), !argument.contains("=") {
            devices.append((nil, argument))  // found by DNS-SD on the interfaces
        } else {
            FileHandle.standardError.write(Data(usage.utf8))
            exit(2)
        }
    }
    guard let trustStore, !devices.isEmpty else {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(2)
    }
    guard !interfaces.isEmpty || devices.allSatisfy({ $0.address != nil }) else {
        FileHandle.standardError.write(Data("a CODE with no address is found by DNS-SD: give --interface\n".utf8))
        exit(2)
    }
    do {
        emit([
            (
                "Commissioning against \(devices.count) device(s), wall time per step (median):",
                try await runCommissioningBenchmark(
                    devices: devices, interfaces: interfaces, trustStorePath: trustStore)
            )
        ])
    } catch {
        FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
        exit(1)
    }
} else {
    emit([
        (nil, try runCodecBenchmarks()), (nil, try runBTPBenchmark()), (nil, try await runHomeQueryBenchmark()),
        ("Live connections:", try await runLiveConnectionBenchmarks()),
        ("The hub's local socket:", try await runHubServiceBenchmark()),
    ])
}
