import Foundation
import HomeAPI
import HomeEngine
import HomeHub
import Synchronization

/// `home updates`, `home update DEVICE [--version N]`, `home update add FILE`: firmware updates, the hub serving its
/// devices as their OTA provider from its folder of images.
enum UpdateCommands {
    static let updates = CommandSpec(
        name: "updates",
        summary: "Each device's software version and the newest image of the hub's folder it may take.",
        options: [
            .init(name: "json", valueName: nil, help: "Print one JSON object instead of tables."),
            HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let home = try await HomeAPICommands.open(arguments)
            let reply = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                try await home.hub.perform(ReadUpdates())
            }
            return .success(arguments.flags.contains("json") ? json(reply).rendered + "\n" : text(reply))
        }
    )

    static let update = CommandSpec(
        name: "update",
        summary: "Update a device's firmware from the hub's folder of images, following it until the device runs it.",
        arguments: [.init(name: "DEVICE", help: "A device ID (see 'home devices') or a device name.")],
        options: [
            .init(
                name: "version", valueName: "N",
                help: "The version to install (one of 'home updates'); default: the newest the device may take."),
            HubCommands.stateOption,
        ],
        subcommands: [
            CommandSpec(
                name: "add",
                summary:
                    "Check an OTA image file whole and add it to the hub's folder (it must be for a device of this home).",
                arguments: [.init(name: "FILE", help: "The .ota file (as connectedhomeip's ota_image_tool.py makes).")],
                options: [HubCommands.stateOption],
                run: { arguments throws(CommandLineError) in
                    let path = URL(fileURLWithPath: arguments.argument("FILE")).standardizedFileURL.path
                    let home = try await HomeAPICommands.open(arguments)
                    let added = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                        try await home.hub.perform(AddUpdateImage(path: path))
                    }
                    let image = added.image
                    return .success(
                        "added version \(image.version) (\(image.versionString)) for vendor 0x\(hex(image.vendorID)) "
                            + "product 0x\(hex(image.productID)) as \(image.file); "
                            + "\(added.nodes.count) device\(added.nodes.count == 1 ? "" : "s") may take it\n")
                }
            ),
            CommandSpec(
                name: "fetch",
                summary:
                    "Fetch the newest image each product of the home may take from the DCL (a ledger node, or a file of its records), checked against its record.",
                options: [
                    .init(
                        name: "dcl", valueName: "URL",
                        help: "A ledger node's REST API (the CSA's main net: https://on.dcl.csa-iot.org)."),
                    .init(
                        name: "records", valueName: "FILE",
                        help:
                            "A JSON array of the ledger's model version records, for a home with no internet (OTA URLs may name files beside it)."
                    ),
                    HubCommands.stateOption,
                ],
                run: { arguments throws(CommandLineError) in
                    let source: FetchUpdates.Source
                    switch (arguments.values["dcl"], arguments.values["records"]) {
                    case (let url?, nil): source = .ledger(url: url)
                    case (nil, let path?):
                        source = .records(path: URL(fileURLWithPath: path).standardizedFileURL.path)
                    default: throw .invalidInput("give either --dcl URL or --records FILE")
                    }
                    let home = try await HomeAPICommands.open(arguments)
                    let progress = arguments.progress
                    let fetched = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                        try await home.hub.perform(FetchUpdates(source: source)) { line in
                            if case .note(let text) = line { progress(text) }
                        }
                    }
                    guard !fetched.products.isEmpty else {
                        return .success("no device of this home has reported its software version\n")
                    }
                    let lines = fetched.products.map { product in
                        "vendor 0x\(hex(product.vendorID)) product 0x\(hex(product.productID)) (running "
                            + product.running.map(String.init).joined(separator: ", ") + "): "
                            + FetchUpdates.describe(product.outcome)
                    }
                    let failed = fetched.products.contains { if case .failed = $0.outcome { true } else { false } }
                    // What was fetched is printed either way; a product that failed makes the exit status 1.
                    return CommandOutput(
                        exitCode: failed ? 1 : 0, standardOutput: lines.joined(separator: "\n") + "\n",
                        standardError: "")
                }
            ),
        ],
        run: { arguments throws(CommandLineError) in
            let version = try arguments.values["version"].map { text throws(CommandLineError) -> UInt32 in
                guard let version = UInt32(text) else {
                    throw .invalidInput("version '\(text)' is not a number from 0 to \(UInt32.max)")
                }
                return version
            }
            let home = try await HomeAPICommands.open(arguments)
            let device = try await HomeAPICommands.device(arguments.argument("DEVICE"), in: home)
            let progress = arguments.progress
            let shown = Mutex(-10)
            do throws(HomeError) {
                let done = try await home.hub.perform(
                    UpdateDevice(nodeID: device.address.nodeID, version: version)
                ) { line in
                    switch line {
                    case .note(let text): progress(text)
                    case .finished(let step, _): progress(step)
                    // Every tenth percent, and the last.
                    case .transfer(let percent, let rate):
                        guard
                            shown.withLock({ last in
                                guard percent >= last + 10 || percent == 100 else { return false }
                                last = percent
                                return true
                            })
                        else { return }
                        progress("downloading: \(percent) % at \(String(format: "%.1f", rate / 1024)) KiB/s")
                    }
                }
                return .success("\(device.name) runs version \(done.to) (\(done.versionString)), was \(done.from)\n")
            } catch  where [HomeError.Code.notFound, .failedPrecondition, .invalidArgument].contains(error.code) {
                throw .invalidInput(error.message)
            } catch {
                throw .failed(error.message)
            }
        }
    )

    private static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    static func text(_ reply: ReadUpdates.Reply) -> String {
        let devices = TextTable.render(
            header: ["NODE", "DEVICE", "PRODUCT", "RUNS", "AVAILABLE"],
            rows: reply.nodes.map { node in
                [
                    HubEngine.nodeDeviceID(node.nodeID), node.names.joined(separator: ", "),
                    "0x\(hex(node.vendorID))/0x\(hex(node.productID))",
                    node.versionString.map { "\($0) (\(node.version.map(String.init) ?? "?"))" } ?? "not reported",
                    node.available.map { "\($0.versionString) (\($0.version)) from \($0.origin)" } ?? "-",
                ]
            })
        let images =
            reply.images.isEmpty
            ? "No images in the hub's folder (home update add FILE).\n"
            : TextTable.render(
                header: ["IMAGE", "PRODUCT", "VERSION", "SIZE", "FROM"],
                rows: reply.images.map { image in
                    [
                        image.file, "0x\(hex(image.vendorID))/0x\(hex(image.productID))",
                        "\(image.versionString) (\(image.version))", "\(image.size) bytes", image.origin,
                    ]
                })
        let unreadable = reply.unreadable.map { "not offered: \($0)\n" }.joined()
        return devices + "\n" + images + unreadable
    }

    static func json(_ reply: ReadUpdates.Reply) -> JSONValue {
        func image(_ image: ReadUpdates.Image) -> JSONValue {
            .object([
                ("vendorID", .unsigned(UInt64(image.vendorID))), ("productID", .unsigned(UInt64(image.productID))),
                ("version", .unsigned(UInt64(image.version))), ("versionString", .string(image.versionString)),
                ("size", .unsigned(UInt64(image.size))), ("file", .string(image.file)),
                ("source", image.source.map(JSONValue.string) ?? .null),
            ])
        }
        return .object([
            (
                "devices",
                .array(
                    reply.nodes.map { node in
                        .object([
                            ("nodeID", .string(HubEngine.nodeDeviceID(node.nodeID))),
                            ("names", .array(node.names.map(JSONValue.string))),
                            ("vendorID", .unsigned(UInt64(node.vendorID))),
                            ("productID", .unsigned(UInt64(node.productID))),
                            ("version", node.version.map { .unsigned(UInt64($0)) } ?? .null),
                            ("versionString", node.versionString.map(JSONValue.string) ?? .null),
                            ("available", node.available.map(image) ?? .null),
                        ])
                    })
            ),
            ("images", .array(reply.images.map(image))),
            ("unreadable", .array(reply.unreadable.map(JSONValue.string))),
        ])
    }
}
