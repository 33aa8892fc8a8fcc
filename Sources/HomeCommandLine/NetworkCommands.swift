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
                    HubCommands.stateOption,
                ],
                run: { arguments throws(CommandLineError) in
                    let passphrase = try secret(arguments.values["password-file"] ?? "-", what: "password")
                    return try await set(
                        SetNetworkCredentials(wifiSSID: arguments.argument("SSID"), passphrase: passphrase),
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
                    HubCommands.stateOption,
                ],
                run: { arguments throws(CommandLineError) in
                    let text = String(
                        decoding: try secret(arguments.values["dataset-file"] ?? "-", what: "dataset"), as: UTF8.self)
                    guard let dataset = ThreadOperationalDataset.bytes(hex: text) else {
                        throw .invalidInput("the dataset file does not hold hexadecimal (two digits a byte)")
                    }
                    return try await set(
                        SetNetworkCredentials(threadDataset: dataset), arguments, saying: "Thread network")
                }
            ),
        ],
        run: { arguments throws(CommandLineError) in
            let home = try await HomeAPICommands.open(arguments)
            let held = try await HomeAPICommands.refusingBadInput { () throws(HomeError) in
                try await home.hub.perform(ReadNetworkCredentials())
            }
            return .success(
                "Wi-Fi:   \(held.wifiSSID.map { "\"\($0)\"" } ?? "not set (home network wifi SSID --password-file FILE)")\n"
                    + "Thread:  \(held.threadExtendedPANID.map { "Extended PAN ID \($0)" } ?? "not set (home network thread --dataset-file FILE)")\n"
            )
        }
    )

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
