import Foundation
import HomeAPI
import HomeEngine
import HomeHub
import HomeRecords
import HubWire

/// `home status`: the hub serving the home, if one does: its PID, how long it has run, its nodes online and offline,
/// and its clients. It only asks: it never becomes the hub itself.
enum StatusCommand {
    static let status = CommandSpec(
        name: "status",
        summary: "Show the hub serving the home: PID, uptime, nodes online and offline, clients connected.",
        options: [
            .init(name: "json", valueName: nil, help: "Print one JSON object instead of text."),
            HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let configuration = Home.Configuration(stateDirectory: arguments.values["state"])
            let status: HubStatus
            do throws(HomeError) {
                guard
                    let hub = try await HubConnection.attach(
                        stateDirectory: try configuration.resolvedStateDirectory())
                else {
                    return CommandOutput(
                        exitCode: 1, standardOutput: "",
                        standardError:
                            "error: no hub serves \(arguments.values["state"] ?? "the home") (start one with 'home serve')\n"
                    )
                }
                status = try await hub.status()
            } catch {
                return CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(error.message)\n")
            }
            let uptime = max(0, Int(Date().timeIntervalSince1970 - status.startedAt))
            if arguments.flags.contains("json") {
                let object: JSONValue = .object([
                    ("pid", .signed(Int64(status.pid))), ("stateDirectory", .string(status.stateDirectory)),
                    ("uptimeSeconds", .unsigned(UInt64(uptime))),
                    ("nodesOnline", .unsigned(UInt64(status.nodesOnline))),
                    ("nodesOffline", .unsigned(UInt64(status.nodesOffline))),
                    ("nodesUnknown", .unsigned(UInt64(status.nodesUnknown))),
                    ("nodesInterrupted", .unsigned(UInt64(status.nodesInterrupted))),
                    // This command is one of them.
                    ("clients", .unsigned(UInt64(status.clients))),
                ])
                return .success(object.rendered + "\n")
            }
            return .success(
                "hub PID \(status.pid) serving \(status.stateDirectory), up \(duration(uptime)): "
                    + "\(status.nodesOnline) node(s) online, \(status.nodesOffline) offline, "
                    + "\(status.nodesUnknown) not yet reached"
                    + (status.nodesInterrupted == 0
                        ? "" : ", \(status.nodesInterrupted) interrupted while being added (see 'home devices')")
                    + "; \(status.clients) client(s) connected (this one included)\n")
        }
    )

    static func duration(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(seconds) s"
        case ..<3600: "\(seconds / 60) min \(seconds % 60) s"
        default: "\(seconds / 3600) h \(seconds % 3600 / 60) min"
        }
    }
}
