import HomeHub
import HomeRecords
import MatterDiscovery
import MatterPlatform

/// `home discover`: find commissionable Matter nodes by DNS-SD on the interfaces the user names.
enum DiscoveryCommands {
    static let discover = CommandSpec(
        name: "discover",
        summary: "Find commissionable Matter nodes (_matterc._udp) by mDNS on the named interfaces.",
        options: [
            .init(name: "discriminator", valueName: "N", help: "Only nodes with this 12-bit discriminator, 0…4095."),
            .init(
                name: "short-discriminator", valueName: "N",
                help: "Only nodes whose discriminator's upper 4 bits are N, 0…15 (as in a manual code)."),
            .init(
                name: "interface", valueName: "NAME", isRequired: true,
                help: "Interface to query on; repeat it or separate names with commas. No default."),
            .init(name: "timeout", valueName: "SECONDS", help: "How long to listen for answers (default 3)."),
            .init(name: "json", valueName: nil, help: "Print one JSON array instead of text."),
        ],
        run: { arguments throws(CommandLineError) in
            let filter = try filter(arguments)
            let interfaces = arguments.repeatedValues["interface", default: []]
                .flatMap { $0.split(separator: ",").map { String($0) } }
            guard !interfaces.isEmpty else {
                throw .usage(
                    "missing --interface (name each interface to query on)", commandPath: arguments.commandPath)
            }
            let timeout = try timeout(arguments.values["timeout"])
            let nodes: [CommissionableNode]
            do throws(MulticastDNSError) {
                nodes = try await MulticastDNSQuerier().browseCommissionable(
                    filter, interfaces: interfaces, timeout: timeout)
            } catch {
                return CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(error.description)\n")
            }
            if arguments.flags.contains("json") {
                return .success(JSONValue.array(nodes.map(json)).rendered + "\n")
            }
            guard !nodes.isEmpty else {
                let on = interfaces.joined(separator: ", ")
                return CommandOutput(
                    exitCode: 1, standardOutput: "",
                    standardError: "no commissionable node answered on \(on) within \(timeout)\n")
            }
            return .success(nodes.map(describe).joined(separator: "\n"))
        }
    )

    private static func filter(_ arguments: ParsedArguments) throws(CommandLineError) -> CommissionableFilter {
        switch (arguments.values["discriminator"], arguments.values["short-discriminator"]) {
        case (nil, nil):
            return .all
        case (let long?, nil):
            guard let value = UInt16(long), value <= 0xFFF else {
                throw .invalidInput("discriminator '\(long)' is not a number in 0…4095")
            }
            return .longDiscriminator(value)
        case (nil, let short?):
            guard let value = UInt8(short), value <= 0xF else {
                throw .invalidInput("short discriminator '\(short)' is not a number in 0…15")
            }
            return .shortDiscriminator(value)
        case (.some, .some):
            throw .usage("give --discriminator or --short-discriminator, not both", commandPath: arguments.commandPath)
        }
    }

    /// Upper bound of one browse: an hour is already far beyond any useful wait.
    private static let maximumTimeoutSeconds = 3600.0

    private static func timeout(_ text: String?) throws(CommandLineError) -> Duration {
        guard let text else { return .seconds(3) }
        guard let seconds = Double(text), seconds > 0, seconds <= maximumTimeoutSeconds else {
            throw .invalidInput("timeout '\(text)' is not a number of seconds in (0, \(Int(maximumTimeoutSeconds))]")
        }
        return .milliseconds(Int((seconds * 1000).rounded()))
    }

    // MARK: Output

    static func describe(_ node: CommissionableNode) -> String {
        let txt = node.txt
        let addresses = node.ipv6Addresses.map(\.description) + node.ipv4Addresses.map(\.description)
        let discriminator = node.longDiscriminator.map { "\($0) (short \($0 >> 8))" } ?? "not advertised"
        let vendorProduct = [
            txt.vendorID.map { "vendor 0x\(paddedHex($0))" }, txt.productID.map { "product 0x\(paddedHex($0))" },
        ].compactMap { $0 }
        return OnboardingCommands.table([
            ("Instance", node.instanceName),
            ("Host", node.hostName.description),
            ("Port", String(node.port)),
            ("Addresses", addresses.joined(separator: ", ")),
            ("Discriminator", discriminator),
            ("Vendor/product", vendorProduct.isEmpty ? "not advertised" : vendorProduct.joined(separator: ", ")),
            ("Commissioning mode", txt.commissioningMode.map(commissioningModeName) ?? "not advertised"),
            ("MRP intervals", mrpIntervals(txt)),
        ])
    }

    static func json(_ node: CommissionableNode) -> JSONValue {
        let txt = node.txt
        func number<Value: BinaryInteger>(_ value: Value?) -> JSONValue { value.map { .unsigned(UInt64($0)) } ?? .null }
        return .object([
            ("instance", .string(node.instanceName)),
            ("host", .string(node.hostName.description)),
            ("port", .unsigned(UInt64(node.port))),
            (
                "addresses",
                .array(
                    (node.ipv6Addresses.map(\.description) + node.ipv4Addresses.map(\.description)).map(
                        JSONValue.string))
            ),
            ("discriminator", number(node.longDiscriminator)),
            ("vendorID", number(txt.vendorID)),
            ("productID", number(txt.productID)),
            ("commissioningMode", number(txt.commissioningMode)),
            ("deviceType", number(txt.deviceType)),
            ("deviceName", txt.deviceName.map(JSONValue.string) ?? .null),
            ("pairingHint", number(txt.pairingHint)),
            ("pairingInstruction", txt.pairingInstruction.map(JSONValue.string) ?? .null),
            ("sessionIdleIntervalMs", number(txt.sessionIdleInterval.map(milliseconds))),
            ("sessionActiveIntervalMs", number(txt.sessionActiveInterval.map(milliseconds))),
            ("sessionActiveThresholdMs", number(txt.sessionActiveThreshold.map(milliseconds))),
            ("txt", .object(txt.entries.map { ($0.key, $0.value.map(JSONValue.string) ?? .bool(true)) })),
        ])
    }

    private static func commissioningModeName(_ mode: UInt8) -> String {
        switch mode {
        case 0: "0 (not in commissioning mode)"
        case 1: "1 (basic)"
        case 2: "2 (enhanced window)"
        default: "\(mode)"
        }
    }

    private static func mrpIntervals(_ txt: MatterTXTRecord) -> String {
        let parts = [
            txt.sessionIdleInterval.map { "idle \(milliseconds($0)) ms" },
            txt.sessionActiveInterval.map { "active \(milliseconds($0)) ms" },
            txt.sessionActiveThreshold.map { "active threshold \(milliseconds($0)) ms" },
        ].compactMap { $0 }
        return parts.isEmpty ? "not advertised (defaults apply)" : parts.joined(separator: ", ")
    }

    private static func milliseconds(_ duration: Duration) -> UInt64 {
        UInt64(duration.components.seconds) * 1000 + UInt64(duration.components.attoseconds / 1_000_000_000_000_000)
    }
}
