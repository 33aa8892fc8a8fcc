import Foundation
import HomeAPI
import HomeEngine
import HomeHub
import MatterNode

/// `home network`, `home network wifi SSID --password-file FILE`, `home network thread --dataset-file FILE`: the
/// Wi-Fi network and Thread dataset the hub gives a device fresh from its box. Secrets come from a file or standard
/// input, never the command line (where other users' `ps` would see them), and are never printed.
enum NetworkCommands {
    static let network = CommandSpec(
        name: "network",
        summary:
            "Show the Wi-Fi network and Thread network the hub gives new devices (never their secrets), or set them.",
        options: [HubCommands.stateOption],
        subcommands: [
            CommandSpec(
                name: "wifi",
                summary: "Set the Wi-Fi network new devices join (the hub's owner only).",
                arguments: [.init(name: "SSID", help: "The network's name, 1 to 32 bytes.")],
                options: [
                    .init(
                        name: "password-file", valueName: "FILE", isRequired: true,
                        help:
                            "The passphrase (8 to 63 characters, or a 64-digit hex PSK; an empty file for an open network), from FILE or '-' for standard input; one trailing newline is dropped."
                    ),
                    idOption,
                    HubCommands.stateOption,
                ],
                run: { arguments throws(CommandLineError) in
                    let passphrase = try secret(arguments.values["password-file"] ?? "-", what: "password")
                    return try await set(
                        SetNetworkCredentials(
                            wifiSSID: arguments.argument("SSID"), passphrase: passphrase, id: id(arguments)),
                        arguments, saying: "Wi-Fi network")
                }
            ),
            CommandSpec(
                name: "thread",
                summary: "Set the Thread network new devices join (the hub's owner only).",
                options: [
                    .init(
                        name: "dataset-file", valueName: "FILE", isRequired: true,
                        help:
                            "The operational dataset in hex (as 'ot-ctl dataset active -x' prints it), from FILE or '-' for standard input."
                    ),
                    idOption,
                    HubCommands.stateOption,
                ],
                run: { arguments throws(CommandLineError) in
                    let text = String(
                        decoding: try secret(arguments.values["dataset-file"] ?? "-", what: "dataset"), as: UTF8.self)
                    guard let dataset = ThreadOperationalDataset.bytes(hex: text) else {
                        throw .invalidInput("the dataset file does not hold hexadecimal (two digits a byte)")
                    }
                    return try await set(
                        SetNetworkCredentials(threadDataset: dataset, id: id(arguments)), arguments,
                        saying: "Thread network")
                }
            ),
            CommandSpec(
                name: "remove",
                summary: "Remove the Wi-Fi network or Thread dataset stored under an ID, its secret with it.",
                arguments: [.init(name: "KIND", help: "wifi or thread.")],
                options: [idOption, HubCommands.stateOption],
                run: { arguments throws(CommandLineError) in
                    guard let kind = NetworkCredentials.Kind(rawValue: arguments.argument("KIND")) else {
                        throw .invalidInput("'\(arguments.argument("KIND"))' is neither wifi nor thread")
                    }
                    let id = id(arguments)
                    let home = try await HomeAPICommands.open(arguments)
                    let removed = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                        try await home.hub.perform(RemoveNetworkCredentials(kind, id: id))
                    }
                    guard removed else {
                        throw .invalidInput("no \(kind.rawValue) credentials are stored under \"\(id)\"")
                    }
                    return .success(
                        "removed the \(kind == .wifi ? "Wi-Fi network" : "Thread dataset") stored under \"\(id)\"\n")
                }
            ),
        ],
        run: { arguments throws(CommandLineError) in
            let home = try await HomeAPICommands.open(arguments)
            let held = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                try await home.hub.perform(ReadNetworkCredentials())
            }
            // The default entries as ever; the others under their IDs (home commission --ble --wifi-id ID).
            let named = held.entries.filter { $0.id != HubStore.defaultCredentialsID }.map { entry in
                "\(entry.kind == .wifi ? "Wi-Fi" : "Thread") \"\(entry.id)\":  \(shown(entry))\n"
            }
            return .success(
                "Wi-Fi:   \(held[.wifi].map(shown) ?? "not set (home network wifi SSID --password-file FILE)")\n"
                    + "Thread:  \(held[.thread].map(shown) ?? "not set (home network thread --dataset-file FILE)")\n"
                    + named.joined())
        }
    )

    private static let idOption = CommandSpec.Option(
        name: "id", valueName: "ID",
        help: "The ID the credentials are kept under, for 'home commission --wifi-id/--thread-id' (default: default).")

    private static func id(_ arguments: ParsedArguments) -> String {
        arguments.values["id"] ?? HubStore.defaultCredentialsID
    }

    private static func shown(_ entry: ReadNetworkCredentials.Entry) -> String {
        switch entry.kind {
        case .wifi: "\"\(entry.shownName)\""
        case .thread: "Extended PAN ID \(entry.shownName)" + (entry.networkName.map { " (\($0))" } ?? "")
        }
    }

    private static func set(
        _ operation: SetNetworkCredentials, _ arguments: ParsedArguments, saying what: String
    ) async throws(CommandLineError) -> CommandOutput {
        let home = try await HomeAPICommands.open(arguments)
        let shown: String
        do {
            shown = try await home.hub.perform(operation)
        } catch  where error.code == .invalidArgument {
            throw .invalidInput(error.message)
        } catch {
            throw .failed(error.message)
        }
        guard operation.id == HubStore.defaultCredentialsID else {
            return .success("kept the \(what) \(shown) under \"\(operation.id)\"\n")
        }
        return .success("new devices join the \(what) \(shown)\n")
    }

    /// The bytes of FILE, or of standard input for '-', less one trailing newline.
    private static func secret(_ path: String, what: String) throws(CommandLineError) -> [UInt8] {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            data = FileManager.default.contents(atPath: path)
        }
        guard var bytes = data.map(Array.init) else { throw .invalidInput("cannot read the \(what) file \(path)") }
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return bytes
    }
}
