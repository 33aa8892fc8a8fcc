import Foundation
import HomeAPI
import HomeEngine
import HomeHub
import HomeRecords
import HubWire
import MatterCertificates
import MatterDiscovery
import MatterOnboarding
import MatterPlatform

/// `home commission`, `home devices`, `home ping`: the hub's fabric and the devices on it.
enum HubCommands {
    static let stateOption = CommandSpec.Option(
        name: "state", valueName: "DIR",
        help: "The hub's state directory (default: $XDG_DATA_HOME/swift-home or ~/.local/share/swift-home).")
    static let interfaceOption = CommandSpec.Option(
        name: "interface", valueName: "NAME",
        help: "Interface for DNS-SD; repeat it or separate names with commas. Without it, no mDNS is sent.")

    static let commission = CommandSpec(
        name: "commission",
        summary: "Commission Matter devices onto this hub's fabric and add their devices to the home.",
        arguments: [
            .init(
                name: "CODE",
                help:
                    "A device's MT: QR code payload or its 11- or 21-digit manual pairing code; several add several devices side by side.",
                isOptional: true, isRepeating: true)
        ],
        options: [
            .init(
                name: "address", valueName: "HOST:PORT",
                help: "The device's address (skips discovery), e.g. [::1]:5540 or 192.168.1.20:5540."),
            .init(
                name: "from", valueName: "FILE",
                help: "Devices to add, one 'CODE [HOST:PORT]' a line ('#' starts a comment); with the CODEs given."),
            interfaceOption,
            .init(
                name: "paa-trust-store", valueName: "DIR", help: "Directory of trusted PAA certificates (DER or PEM)."),
            .init(
                name: "accept-untrusted-device", valueName: nil,
                help: "Commission a device that fails attestation; it is recorded as untrusted."),
            .init(
                name: "name", valueName: "NAME", help: "The device's name (default: its product name); one device only."
            ),
            .init(name: "room", valueName: "ROOM", help: "The room to put it in (created when new)."),
            .init(
                name: "ble", valueName: "proxy|ADAPTER",
                help:
                    "Reach a device fresh from its box over Bluetooth LE: through the BLE proxies connected to the hub's /ble (proxy); it is given the Wi-Fi or Thread network of 'home network', then found on IP on --interface."
            ),
            .init(
                name: "scan-networks", valueName: nil,
                help:
                    "With --ble: have the device scan for the network first, so one it cannot see fails before it is given."
            ),
            .init(
                name: "wifi-id", valueName: "ID",
                help: "With --ble: give the device the Wi-Fi network 'home network' stores under ID (default: default)."
            ),
            .init(
                name: "thread-id", valueName: "ID",
                help:
                    "With --ble: give the device the Thread network 'home network' stores under ID (default: default)."),
            .init(
                name: "json", valueName: nil,
                help: "Print one JSON object (an array for several) instead of the device IDs."),
            stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let targets = try commissioningTargets(arguments)
            for option in ["scan-networks", "wifi-id", "thread-id"]
            where arguments.values["ble"] == nil
                && (arguments.flags.contains(option) || arguments.values[option] != nil)
            {
                throw .usage(
                    "--\(option) is for a device given a network over Bluetooth LE: give --ble too",
                    commandPath: arguments.commandPath)
            }
            let interfaces = interfaceNames(arguments)
            let overBluetooth = arguments.values["ble"] != nil
            if overBluetooth, targets.contains(where: { $0.address != nil }) {
                throw .usage(
                    "--ble finds the device over Bluetooth LE: it takes no address", commandPath: arguments.commandPath)
            }
            if targets.contains(where: { $0.address == nil }), interfaces.isEmpty {
                throw .usage(
                    overBluetooth
                        ? "give --interface NAME: the device is found on IP there once it joined its network"
                        : "give --address HOST:PORT, or --interface NAME to discover the device",
                    commandPath: arguments.commandPath)
            }
            let acceptUntrusted = arguments.flags.contains("accept-untrusted-device")
            // Checked here, so bad input is refused before anything is sent; the hub loads it again.
            _ = try trustStore(arguments.values["paa-trust-store"], acceptUntrusted: acceptUntrusted)
            let home = try await HomeAPICommands.open(arguments, interfaces: interfaces)
            let json = arguments.flags.contains("json")
            if targets.count == 1, let target = targets.first {
                switch await commission(target, home: home, arguments, progressPrefix: "") {
                case .success(let result):
                    return .success(
                        json
                            ? commissionedJSON(result).rendered + "\n"
                            : result.devices.map(\.description).joined(separator: "\n") + "\n")
                case .failure(let error):
                    // A name or room the hub refuses is refused before anything is sent: bad input, as everywhere.
                    return CommandOutput(
                        exitCode: error.code == .invalidArgument ? 2 : 1, standardOutput: "",
                        standardError: "error: \(error.message)\n")
                }
            }
            // Side by side: the hub runs as many at once as it allows and queues the rest.
            let results = await withTaskGroup(of: (Int, Result<CommissionedDevice, HomeError>).self) { group in
                for (index, target) in targets.enumerated() {
                    group.addTask {
                        (index, await commission(target, home: home, arguments, progressPrefix: "[\(index + 1)] "))
                    }
                }
                var results: [Result<CommissionedDevice, HomeError>?] = Array(repeating: nil, count: targets.count)
                for await (index, result) in group { results[index] = result }
                return results.compactMap { $0 }
            }
            var output = "", errors = ""
            var entries: [JSONValue] = []
            for (target, result) in zip(targets, results) {
                switch result {
                case .success(let device):
                    output += "\(target.code)  \(device.devices.map(\.description).joined(separator: " "))\n"
                    entries.append(.object([("code", .string(target.code))] + commissionedFields(device)))
                case .failure(let error):
                    errors += "error: \(target.code): \(error.message)\n"
                    entries.append(.object([("code", .string(target.code)), ("error", .string(error.message))]))
                }
            }
            let failed = results.filter { if case .failure = $0 { true } else { false } }.count
            if failed > 0 { errors += "\(failed) of \(targets.count) devices were not added\n" }
            return CommandOutput(
                exitCode: failed > 0 ? 1 : 0, standardOutput: json ? JSONValue.array(entries).rendered + "\n" : output,
                standardError: errors)
        }
    )

    /// One device `home commission` adds: its code, and its address when known.
    struct CommissioningTarget: Sendable {
        let code: String
        let address: SocketAddress?
    }

    /// The CODEs given, with --address for a single one, then the --from file's lines; every code and address is
    /// checked before anything is sent.
    private static func commissioningTargets(
        _ arguments: ParsedArguments
    ) throws(CommandLineError) -> [CommissioningTarget] {
        let codes = arguments.repeatedArguments["CODE"] ?? []
        let address = try arguments.values["address"].map(parseAddress)
        var targets: [CommissioningTarget] = []
        for code in codes {
            try checkCode(code, at: nil)
            targets.append(CommissioningTarget(code: code, address: address))
        }
        if let path = arguments.values["from"] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw .invalidInput("cannot read \(path)")
            }
            // Lines end in LF or CRLF (a file saved on Windows: "\r\n" is one Character); a byte order mark is no code.
            var text = String(decoding: data, as: UTF8.self)
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            for (number, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
                .enumerated()
            {
                let fields = (line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                    .split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                guard !fields.isEmpty else { continue }
                let place = "\(path) line \(number + 1)"
                guard fields.count <= 2 else { throw .invalidInput("\(place): expected CODE [HOST:PORT]") }
                try checkCode(fields[0], at: place)
                let address: SocketAddress?
                do throws(CommandLineError) {
                    address = try fields.count == 2 ? parseAddress(fields[1]) : nil
                } catch {
                    throw .invalidInput("\(place): \(error.message)")
                }
                targets.append(CommissioningTarget(code: fields[0], address: address))
            }
        }
        guard !targets.isEmpty else {
            throw .usage("give a device's CODE, or --from FILE", commandPath: arguments.commandPath)
        }
        if targets.count > 1 {
            if address != nil {
                throw .usage(
                    "--address is one device's: give each device its own in a --from file (CODE HOST:PORT lines)",
                    commandPath: arguments.commandPath)
            }
            if arguments.values["name"] != nil {
                throw .usage(
                    "--name is one device's: several are each named after their product (rename them with home rename)",
                    commandPath: arguments.commandPath)
            }
        }
        return targets
    }

    private static func checkCode(_ code: String, at place: String?) throws(CommandLineError) {
        do throws(OnboardingError) {
            _ = try SetupPayload(parsing: code)
        } catch {
            throw .invalidInput(place.map { "\($0): \(error.description)" } ?? error.description)
        }
    }

    /// Commissions one device, telling each step as it ends (prefixed, when several run side by side).
    private static func commission(
        _ target: CommissioningTarget, home: Home, _ arguments: ParsedArguments, progressPrefix: String
    ) async -> Result<CommissionedDevice, HomeError> {
        let progress = arguments.progress
        let clock = ContinuousClock()
        let start = clock.now
        var request = CommissionDevice(
            payload: target.code, address: target.address, interfaces: interfaceNames(arguments),
            paaTrustStore: arguments.values["paa-trust-store"],
            acceptUntrustedDevice: arguments.flags.contains("accept-untrusted-device"),
            name: arguments.values["name"], room: arguments.values["room"],
            bluetooth: arguments.values["ble"].map(BluetoothChoice.init),
            scanNetworks: arguments.flags.contains("scan-networks"))
        request.wifiCredentialsID = arguments.values["wifi-id"]
        request.threadDatasetID = arguments.values["thread-id"]
        do throws(HomeError) {
            return .success(
                try await home.hub.perform(request) { line in
                    switch line {
                    case .finished(let step, let seconds):
                        progress(
                            "\(progressPrefix)\(format(clock.now - start)) \(step) done in \(format(.nanoseconds(Int64(seconds * 1e9))))"
                        )
                    case .note(let text):
                        progress("\(progressPrefix)\(format(clock.now - start)) note: \(text)")
                    case .transfer: break
                    }
                })
        } catch {
            return .failure(error)
        }
    }

    private static func commissionedJSON(_ result: CommissionedDevice) -> JSONValue {
        .object(commissionedFields(result))
    }

    private static func commissionedFields(_ result: CommissionedDevice) -> [(String, JSONValue)] {
        [
            ("deviceIDs", .array(result.devices.map { .string($0.description) })),
            ("nodeID", .string(paddedHex(result.nodeID))),
            ("vendorID", .unsigned(UInt64(result.vendorID))),
            ("productID", .unsigned(UInt64(result.productID))),
            ("elapsedSeconds", .seconds(result.elapsedSeconds)),
            (
                "steps",
                .array(
                    result.steps.map {
                        .object([("step", .string($0.step)), ("seconds", .seconds($0.seconds))])
                    })
            ),
        ]
    }

    static let devices = CommandSpec(
        name: "devices",
        summary:
            "List the devices of the home: ID, name, room, vendor, product, device types and, with --live, connectivity.",
        options: [
            .init(name: "json", valueName: nil, help: "Print one JSON array instead of a table."),
            .init(
                name: "multipart", valueName: nil,
                help:
                    "One device per node, its parts (endpoints) listed under it with their device types and semantic tags."
            ),
            .init(
                name: "live", valueName: nil,
                help:
                    "Connect to every node and show whether it answers (waits up to \(CommandLineTiming.liveAnswer.components.seconds) s for a node that does not)."
            ),
            interfaceOption, stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let home = try await HomeAPICommands.open(arguments, interfaces: interfaceNames(arguments))
            let snapshot = home.hub.model.snapshot
            let devices = snapshot.devices.values.flatMap { $0 }.sorted { $0.id < $1.id }
            var connectivity: [UInt64: NodeConnection.State]?
            if arguments.flags.contains("live"), !devices.isEmpty {
                let all = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                    try await home.devices().list()
                }
                connectivity = await LiveConnectivity.states(of: all, in: home)
            }
            let json = arguments.flags.contains("json")
            // Nodes a commissioning left unfinished are not devices yet, but the user should know they exist.
            let interrupted = (try? await home.interruptedDevices().list()) ?? []
            for device in interrupted.sorted(by: { $0.id < $1.id }) {
                let product =
                    device.productName
                    ?? "vendor 0x\(paddedHex(device.vendorID)), product 0x\(paddedHex(device.productID))"
                arguments.progress(
                    "note: node \(device.id) (\(product)) "
                        + "was interrupted while being added\(device.lastStep.map { " (after \($0))" } ?? ""); it is "
                        + "finished when it answers (the hub's next start or 'home commission' tries it), or removed "
                        + "with 'home remove \(device.id)'")
            }
            return .success(
                arguments.flags.contains("multipart")
                    ? MultipartDeviceList.render(devices, connectivity: connectivity, json: json)
                    : DeviceList.render(devices, connectivity: connectivity, json: json))
        }
    )

    static let ping = CommandSpec(
        name: "ping",
        summary: "Open a CASE session to a device from scratch and read its vendor name, timing the round trip.",
        arguments: [.init(name: "DEVICE", help: "A device ID (see 'home devices') or a device name.")],
        options: [
            .init(
                name: "count", valueName: "N",
                help: "Read N times over the session (1 to 10000) and give the median and 90th percentile."),
            interfaceOption, stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let count =
                try arguments.values["count"].map { text throws(CommandLineError) in
                    guard let count = Int(text), (1...10_000).contains(count) else {
                        throw .invalidInput("count '\(text)' is not a number from 1 to 10000")
                    }
                    return count
                } ?? 1
            let home = try await HomeAPICommands.open(arguments, interfaces: interfaceNames(arguments))
            let device = try await HomeAPICommands.device(arguments.argument("DEVICE"), in: home)
            do throws(HomeError) {
                let result = try await home.hub.ping(nodeID: device.address.nodeID, reads: count)
                let sorted = result.roundTrips.sorted()
                let reads =
                    count == 1
                    ? "read in \(format(sorted[0]))"
                    : "\(count) reads: median \(format(sorted[count / 2])), 90th percentile \(format(sorted[count * 9 / 10]))"
                return .success(
                    "\(result.vendorName) at \(result.address): \(reads) "
                        + "(CASE session established in \(format(result.session)))\n")
            } catch {
                return CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(error.message)\n")
            }
        }
    )

    // MARK: Helpers

    static func interfaceNames(_ arguments: ParsedArguments) -> [String] {
        arguments.repeatedValues["interface", default: []].flatMap { $0.split(separator: ",").map(String.init) }
    }

    private static func trustStore(
        _ directory: String?, acceptUntrusted: Bool
    ) throws(CommandLineError) -> PAATrustStore {
        guard let directory else {
            guard acceptUntrusted else {
                throw .invalidInput(
                    "no PAA trust store: pass --paa-trust-store DIR (or --accept-untrusted-device to skip attestation's verdict)"
                )
            }
            return PAATrustStore(certificates: [])
        }
        do {
            return try PAATrustStore(directory: directory)
        } catch {
            throw .invalidInput("PAA trust store \(directory): \(error)")
        }
    }

    /// `[::1]:5540`, `192.168.1.20:5540`.
    static func parseAddress(_ text: String) throws(CommandLineError) -> SocketAddress {
        let invalid = CommandLineError.invalidInput(
            "address '\(text)' is not HOST:PORT (e.g. [::1]:5540 or 127.0.0.1:5540)")
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":"),
                let host = IPv6Address(String(text[text.index(after: text.startIndex)..<close])),
                let port = UInt16(text[text.index(close, offsetBy: 2)...])
            else { throw invalid }
            return .ipv6(host, port: port)
        }
        let parts = text.split(separator: ":")
        guard parts.count == 2, let host = IPv4Address(String(parts[0])), let port = UInt16(parts[1]) else {
            throw invalid
        }
        return .ipv4(host, port: port)
    }

    static func format(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds < 0.001 { return String(format: "%.0f µs", seconds * 1_000_000) }
        return seconds < 1 ? String(format: "%.1f ms", seconds * 1000) : String(format: "%.2f s", seconds)
    }
}

extension Duration {
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
