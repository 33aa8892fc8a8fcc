import HomeHub
import HomeRecords
import MatterOnboarding
import MatterTLV

/// `home onboarding parse|generate`: the codes printed on a Matter device's label.
enum OnboardingCommands {
    static let group = CommandSpec(
        name: "onboarding",
        summary: "Parse and generate Matter onboarding codes (QR code payloads and manual pairing codes).",
        subcommands: [parse, generate]
    )

    static let parse = CommandSpec(
        name: "parse",
        summary: "Print the fields of a QR code payload (MT:…) or a manual pairing code.",
        arguments: [.init(name: "CODE", help: "An MT: QR code payload, or an 11- or 21-digit manual pairing code.")],
        options: [.init(name: "json", valueName: nil, help: "Print one JSON object instead of text.")],
        run: { arguments throws(CommandLineError) in
            let payload = try decode(arguments.argument("CODE"))
            let text = arguments.flags.contains("json") ? json(payload).rendered + "\n" : describe(payload)
            return .success(text)
        }
    )

    static let generate = CommandSpec(
        name: "generate",
        summary: "Make the QR code payload and manual pairing code for a device's setup values.",
        options: [
            .init(name: "vendor-id", valueName: "N", isRequired: true, help: "Vendor ID, 0…65535 (decimal or 0x hex)."),
            .init(name: "product-id", valueName: "N", isRequired: true, help: "Product ID, 0…65535."),
            .init(name: "discriminator", valueName: "N", isRequired: true, help: "12-bit discriminator, 0…4095."),
            .init(
                name: "passcode", valueName: "N", isRequired: true,
                help: "Setup passcode, 1…99999998, not a trivial one."),
            .init(name: "flow", valueName: "FLOW", help: "standard (default), user-intent or custom."),
            .init(
                name: "discovery", valueName: "LIST",
                help: "Comma-separated: on-network (default), ble, soft-ap, wifi-paf."),
        ],
        run: { arguments throws(CommandLineError) in
            let flowName = arguments.values["flow"] ?? CommissioningFlow.standard.name
            guard let flow = CommissioningFlow(name: flowName) else {
                throw .invalidInput("unknown flow '\(flowName)' (expected standard, user-intent or custom)")
            }
            let payload = SetupPayload(
                vendorID: try number(arguments.requiredValue("vendor-id"), name: "vendor ID", as: UInt16.self),
                productID: try number(arguments.requiredValue("product-id"), name: "product ID", as: UInt16.self),
                commissioningFlow: flow,
                discoveryCapabilities: try capabilities(arguments.values["discovery"] ?? "on-network"),
                discriminator: .long(
                    try number(arguments.requiredValue("discriminator"), name: "discriminator", as: UInt16.self)),
                passcode: try number(arguments.requiredValue("passcode"), name: "passcode", as: UInt32.self)
            )
            do throws(OnboardingError) {
                return .success(table([("QR code", try payload.qrCode()), ("Manual code", try payload.manualCode())]))
            } catch {
                throw .invalidInput(error.description)
            }
        }
    )

    private static func decode(_ code: String) throws(CommandLineError) -> SetupPayload {
        do {
            return try SetupPayload(parsing: code)
        } catch {
            throw .invalidInput(error.description)
        }
    }

    private static func number<Value: FixedWidthInteger>(
        _ text: String, name: String, as: Value.Type
    ) throws(CommandLineError) -> Value {
        let parsed = text.hasPrefix("0x") || text.hasPrefix("0X") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let parsed else { throw .invalidInput("\(name) '\(text)' is not a number") }
        guard let value = Value(exactly: parsed) else {
            throw .invalidInput("\(name) \(parsed) is out of range 0…\(Value.max)")
        }
        return value
    }

    private static func capabilities(_ list: String) throws(CommandLineError) -> DiscoveryCapabilities {
        var capabilities: DiscoveryCapabilities = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false) {
            guard let match = DiscoveryCapabilities.named.first(where: { $0.name == name }) else {
                let known = DiscoveryCapabilities.named.map(\.name).joined(separator: ", ")
                throw .invalidInput("unknown discovery capability '\(name)' (expected \(known))")
            }
            capabilities.insert(match.capability)
        }
        return capabilities
    }

    // MARK: Output

    static func describe(_ payload: SetupPayload) -> String {
        let absent = "not in a manual pairing code"
        var rows: [(String, String)] = [
            ("Version", String(payload.version)),
            ("Vendor ID", payload.vendorID.map(hex) ?? absent),
            ("Product ID", payload.productID.map(hex) ?? absent),
            ("Commissioning flow", payload.commissioningFlow.name),
            (
                "Discovery",
                payload.discoveryCapabilities.map { $0.names.isEmpty ? "none" : $0.names.joined(separator: ", ") }
                    ?? "\(absent) (try every transport)"
            ),
            (
                "Discriminator",
                payload.discriminator.isShort
                    ? "\(payload.discriminator.value) (short: the upper 4 bits of the 12-bit discriminator)"
                    : "\(payload.discriminator.value)"
            ),
            ("Passcode", Passcode.formatted(payload.passcode)),
        ]
        for entry in payload.extensions {
            rows.append((extensionLabel(entry), describe(entry.value)))
        }
        if let manualCode = try? payload.manualCode() { rows.append(("Manual code", manualCode)) }
        if let qrCode = try? payload.qrCode() { rows.append(("QR code", qrCode)) }
        return table(rows)
    }

    static func json(_ payload: SetupPayload) -> JSONValue {
        .object([
            ("version", .unsigned(UInt64(payload.version))),
            ("vendorID", payload.vendorID.map { .unsigned(UInt64($0)) } ?? .null),
            ("productID", payload.productID.map { .unsigned(UInt64($0)) } ?? .null),
            ("commissioningFlow", .string(payload.commissioningFlow.name)),
            (
                "discoveryCapabilities",
                payload.discoveryCapabilities.map { .array($0.names.map(JSONValue.string)) } ?? .null
            ),
            ("discriminator", .unsigned(UInt64(payload.discriminator.value))),
            ("shortDiscriminator", .bool(payload.discriminator.isShort)),
            ("passcode", .unsigned(UInt64(payload.passcode))),
            (
                "extensions",
                .array(
                    payload.extensions.map { entry in
                        .object([
                            ("tag", .unsigned(UInt64(entry.tag))),
                            ("name", entry.name.map(JSONValue.string) ?? .null),
                            ("value", json(entry.value)),
                        ])
                    })
            ),
        ])
    }

    private static func extensionLabel(_ entry: SetupPayloadExtension) -> String {
        let tag = "0x" + paddedHex(entry.tag)
        if let name = entry.name { return "\(name) (tag \(tag))" }
        return entry.isVendorSpecific ? "Vendor tag \(tag)" : "Reserved tag \(tag)"
    }

    private static func describe(_ value: TLVValue) -> String {
        switch value {
        case .utf8(let text): "\"\(text)\""
        case .unsigned(let number): String(number)
        case .signed(let number): String(number)
        case .bytes(let bytes): "0x" + bytes.map { paddedHex($0) }.joined()
        default: "\(value)"
        }
    }

    private static func json(_ value: TLVValue) -> JSONValue {
        switch value {
        case .utf8(let text): .string(text)
        case .unsigned(let number): .unsigned(number)
        case .signed(let number): .signed(number)
        case .bool(let flag): .bool(flag)
        case .bytes(let bytes): .string(bytes.map { paddedHex($0) }.joined())
        default: .string("\(value)")
        }
    }

    private static func hex(_ value: UInt16) -> String {
        "0x" + paddedHex(value) + " (\(value))"
    }

    static func table(_ rows: [(String, String)]) -> String {
        let width = (rows.map(\.0.count).max() ?? 0) + 2
        return rows.map { label, value in
            label + ":" + String(repeating: " ", count: width - label.count - 1) + value
        }.joined(separator: "\n") + "\n"
    }
}
