import Foundation
import HomeAPI
import HomeHub
import HomeRecords

/// `home share`, `home fabrics`: a device shared with another ecosystem, and who controls it, through the Home API
/// (`openCommissioningWindow`, `revokeCommissioningWindow`, `fabrics`), which keeps the rules.
enum SharingCommands {
    static let share = CommandSpec(
        name: "share",
        summary: "Open a commissioning window so another ecosystem can add a device; print its codes.",
        arguments: [LiveCommands.deviceArgument],
        options: [
            .init(
                name: "timeout", valueName: "SECONDS",
                help: "How long the window stays open, 180 to 900 (default 180)."),
            .init(name: "revoke", valueName: nil, help: "Close the window open on the device instead."),
            .init(
                name: "basic", valueName: nil,
                help: "Open a basic window instead: the device's own setup code (on its label) works meanwhile."),
            .init(name: "json", valueName: nil, help: "Print one JSON object instead of lines."),
            HubCommands.interfaceOption, HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let home = try await HomeAPICommands.open(arguments, interfaces: HubCommands.interfaceNames(arguments))
            let device = try await HomeAPICommands.device(arguments.argument("DEVICE"), in: home)
            if arguments.flags.contains("revoke") {
                try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                    try await device.revokeCommissioningWindow()
                }
                return .success("\(device.name) (\(device.id)): commissioning window closed\n")
            }
            // The bounds are the Home API's to check: it refuses the others with their reason.
            var timeout = 180
            if let text = arguments.values["timeout"] {
                guard let seconds = Int(text) else {
                    throw .invalidInput("timeout '\(text)' is not a number of seconds")
                }
                timeout = seconds
            }
            if arguments.flags.contains("basic") {
                let closes = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                    try await device.openBasicCommissioningWindow(timeout: .seconds(timeout))
                }
                return .success(
                    "\(device.name) (\(device.id)) can be added with its own setup code until "
                        + ISO8601DateFormatter().string(from: closes) + "\n")
            }
            let window = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                try await device.openCommissioningWindow(timeout: .seconds(timeout))
            }
            return .success(render(window, of: device, json: arguments.flags.contains("json")))
        }
    )

    static let fabrics = CommandSpec(
        name: "fabrics",
        summary: "List the ecosystems that control a device: each fabric of its node, this hub's marked.",
        arguments: [LiveCommands.deviceArgument],
        options: [
            .init(name: "json", valueName: nil, help: "Print one JSON array instead of a table."),
            HubCommands.interfaceOption, HubCommands.stateOption,
        ],
        subcommands: [removeFabric],
        run: { arguments throws(CommandLineError) in
            let home = try await HomeAPICommands.open(arguments, interfaces: HubCommands.interfaceNames(arguments))
            let device = try await HomeAPICommands.device(arguments.argument("DEVICE"), in: home)
            let (fabrics, window) = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                (try await device.fabrics(), try await device.commissioningWindowStatus())
            }
            return .success(render(fabrics, window: window, json: arguments.flags.contains("json")))
        }
    )

    static let removeFabric = CommandSpec(
        name: "remove",
        summary: "Remove another ecosystem's fabric from a device: it can no longer reach the device.",
        arguments: [
            LiveCommands.deviceArgument,
            .init(name: "INDEX", help: "The fabric's index (see 'home fabrics DEVICE'); not this hub's own."),
        ],
        options: [
            .init(name: "yes", valueName: nil, help: "Do not ask; needed when standard input is not a terminal."),
            HubCommands.interfaceOption, HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            guard let index = UInt8(arguments.argument("INDEX")) else {
                throw .invalidInput("fabric index '\(arguments.argument("INDEX"))' is not a number from 0 to 255")
            }
            let home = try await HomeAPICommands.open(arguments, interfaces: HubCommands.interfaceNames(arguments))
            let device = try await HomeAPICommands.device(arguments.argument("DEVICE"), in: home)
            if !arguments.flags.contains("yes") {
                guard isatty(STDIN_FILENO) == 1 else {
                    throw .invalidInput("removing a fabric needs --yes when standard input is not a terminal")
                }
                FileHandle.standardError.write(
                    Data("Remove fabric \(index) from \(device.name) (\(device.id))? [y/N] ".utf8))
                guard let answer = readLine(), answer.lowercased().hasPrefix("y") else {
                    return .success("nothing removed\n")
                }
            }
            try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                do throws(HomeError) {
                    try await device.removeFabric(index: index)
                } catch  where error.code == .failedPrecondition {
                    throw HomeError(.invalidArgument, error.message)
                }
            }
            return .success("\(device.name) (\(device.id)): fabric \(index) removed\n")
        }
    )

    static func render(_ window: CommissioningWindow, of device: HomeDevice, json: Bool) -> String {
        let closes = ISO8601DateFormatter().string(from: window.expiresAt)
        if json {
            return JSONValue.object([
                ("device", .string(device.id)), ("qrCode", .string(window.qrCode)),
                ("manualCode", .string(window.manualCode)), ("discriminator", .unsigned(UInt64(window.discriminator))),
                ("expiresAt", .string(closes)),
            ]).rendered + "\n"
        }
        return """
            \(device.name) (\(device.id)) can be added by another ecosystem until \(closes):
              QR code:        \(window.qrCode)
              Manual code:    \(window.manualCode)
              Discriminator:  \(window.discriminator)

            """
    }

    static func render(_ fabrics: [DeviceFabric], window: CommissioningWindowStatus, json: Bool) -> String {
        let windowText =
            switch window {
            case .closed: "closed"
            case .enhanced: "open (enhanced: its own code)"
            case .basic: "open (basic: the device's setup code)"
            }
        let hex = { (value: UInt64, digits: Int) in
            let text = String(value, radix: 16, uppercase: true)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        if json {
            let windowName =
                switch window {
                case .closed: "closed"
                case .enhanced: "enhanced"
                case .basic: "basic"
                }
            let list = JSONValue.array(
                fabrics.map { fabric in
                    .object([
                        ("index", .unsigned(UInt64(fabric.index))), ("vendorID", .unsigned(UInt64(fabric.vendorID))),
                        ("vendorName", fabric.vendorName.map(JSONValue.string) ?? .null),
                        ("label", .string(fabric.label)),
                        ("nodeID", .string(hex(fabric.nodeID, 16))), ("fabricID", .string(hex(fabric.fabricID, 16))),
                        ("rootKeyFingerprint", .string(fabric.rootKeyFingerprint)),
                        ("thisHub", .bool(fabric.isThisHub)),
                    ])
                })
            return JSONValue.object([("fabrics", list), ("commissioningWindow", .string(windowName))]).rendered + "\n"
        }
        return TextTable.render(
            header: ["INDEX", "VENDOR", "LABEL", "NODE ID", "ROOT KEY", ""],
            rows: fabrics.map { fabric in
                [
                    "\(fabric.index)",
                    (fabric.vendorName.map { "\($0) " } ?? "") + "(0x\(hex(UInt64(fabric.vendorID), 4)))",
                    fabric.label.isEmpty ? "-" : fabric.label, hex(fabric.nodeID, 16), fabric.rootKeyFingerprint,
                    fabric.isThisHub ? "this hub" : "",
                ]
            }) + "Commissioning window: \(windowText)\n"
    }
}
