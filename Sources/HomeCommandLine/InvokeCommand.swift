import Foundation
import HomeAPI
import HomeEngine
import HomeHub
import HubWire
import MatterDataModel
import MatterInteraction
import MatterServer

/// `home invoke` and `home write`: any command of any cluster of the data model, named as people write it
/// (`LevelControl.MoveToLevel`, any case), its fields as FIELD=VALUE, and any attribute a client may write, checked
/// against the data model before anything is sent by the same rules as the Matter-server API's `device_command` and
/// `write_attribute` (`NamedCommand`, `NamedAttributeWrite`), sent timed when the specification says, through the hub
/// like every other command.
enum InvokeCommand {
    static let invoke = CommandSpec(
        name: "invoke",
        summary: "Send any command of the data model to a device and print its response.",
        arguments: [
            LiveCommands.deviceArgument,
            .init(name: "COMMAND", help: "Cluster.Command, e.g. OnOff.Toggle or LevelControl.MoveToLevel (any case)."),
            .init(
                name: "FIELD=VALUE",
                help:
                    "A field of the command, by its data-model name (any case): a number, true or false, null, text, or JSON for a list or struct; octet strings in base64.",
                isOptional: true, isRepeating: true),
        ],
        options: [
            .init(name: "json", valueName: nil, help: "Print the response as JSON (null for a status-only answer)."),
            endpointOption, HubCommands.interfaceOption, HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let command = try named(arguments.argument("COMMAND"))
            let payload = try fields(arguments.repeatedArguments["FIELD=VALUE"] ?? [], of: command)
            // Checked before the home is opened: a bad field is bad input whatever the device.
            do throws(MatterServerPayload.Invalid) {
                _ = try command.invocation(nodeID: 0, endpoint: 0, payload: payload, knownValuesOnly: true)
            } catch {
                throw .invalidInput(error.description)
            }
            let (device, reply) = try await send(arguments, naming: command.name) {
                nodeID, endpoint throws(MatterServerPayload.Invalid) in
                try command.invocation(nodeID: nodeID, endpoint: endpoint, payload: payload, knownValuesOnly: true)
            }
            let response = command.response(command: reply.command, fields: reply.fields)
            if arguments.flags.contains("json") { return .success((response ?? .null).rendered + "\n") }
            return .success(
                "\(LiveCommands.label(device)): \(command.name)"
                    + (response.map { ": " + $0.rendered } ?? ": done") + "\n")
        }
    )

    static let write = CommandSpec(
        name: "write",
        summary: "Write an attribute of a device and print the device's answer.",
        arguments: [
            LiveCommands.deviceArgument,
            .init(
                name: "ATTRIBUTE",
                help: "Cluster.Attribute a client may write, e.g. LevelControl.OnLevel or BasicInformation.NodeLabel."),
            .init(
                name: "VALUE",
                help:
                    "A number, true or false, null, text, or JSON for a list or struct (its fields by tag or name); octet strings in base64."
            ),
        ],
        options: [endpointOption, HubCommands.interfaceOption, HubCommands.stateOption],
        run: { arguments throws(CommandLineError) in
            let attribute = try AttributeName.resolving(
                arguments.argument("ATTRIBUTE"), example: "LevelControl.OnLevel")
            let value = argument(arguments.argument("VALUE"))
            let write: NamedAttributeWrite
            do throws(MatterServerPayload.Invalid) {
                write = try NamedAttributeWrite(cluster: attribute.cluster, attribute: attribute.attribute)
                // Checked before the home is opened: a bad value is bad input whatever the device.
                _ = try write.write(nodeID: 0, endpoint: 0, value: value, knownValuesOnly: true)
            } catch {
                throw .invalidInput(error.description)
            }
            let (device, status) = try await send(arguments, naming: write.name) {
                nodeID, endpoint throws(MatterServerPayload.Invalid) in
                try write.write(nodeID: nodeID, endpoint: endpoint, value: value, knownValuesOnly: true)
            }
            guard status == InteractionModelStatus.success.rawValue else {
                throw .failed(
                    "\(LiveCommands.label(device)): the device refused \(write.name): "
                        + "\(InteractionModelStatus(rawValue: status))")
            }
            return .success("\(LiveCommands.label(device)): \(write.name): done\n")
        }
    )

    /// The node's own clusters (Administrator Commissioning, Access Control, Basic Information, …) are on its endpoint
    /// 0, which is no device of the home: `--endpoint 0` sends there.
    static let endpointOption = CommandSpec.Option(
        name: "endpoint", valueName: "N",
        help:
            "Send to endpoint N of the device's node instead of the device's own (0: the node's Administrator Commissioning, Access Control, Basic Information and the like)."
    )

    /// Opens the home, finds DEVICE, and sends it the operation `operation` makes for its node and endpoint, through
    /// the hub, as soon as the node's session is up. What the hub refuses before sending (the endpoint lacks the
    /// cluster) is bad input; anything else the device or the hub answered exits 1 naming `what`.
    private static func send<Operation: HubOperation>(
        _ arguments: ParsedArguments, naming what: String,
        _ operation: (_ nodeID: UInt64, _ endpoint: UInt16) throws(MatterServerPayload.Invalid) -> Operation
    ) async throws(CommandLineError) -> (HomeDevice, Operation.Reply) {
        let endpoint = try arguments.values["endpoint"].map { text throws(CommandLineError) in
            guard let endpoint = UInt16(text) else {
                throw .invalidInput("--endpoint \(text) is no endpoint number (0 to 65535)")
            }
            return endpoint
        }
        let home = try await HomeAPICommands.open(arguments, interfaces: HubCommands.interfaceNames(arguments))
        let device = try await HomeAPICommands.device(arguments.argument("DEVICE"), in: home)
        do throws(HomeError) {
            let built: Operation
            do throws(MatterServerPayload.Invalid) {
                built = try operation(device.address.nodeID, endpoint ?? device.address.endpoint)
            } catch {
                throw HomeError(.invalidArgument, error.description)
            }
            // The hub starts following the node and sends as soon as its session is up.
            return (device, try await home.hub.perform(built))
        } catch  where error.code == .failedPrecondition || error.code == .invalidArgument {
            throw .invalidInput("\(LiveCommands.label(device)): \(error.message)")
        } catch {
            throw .failed("\(LiveCommands.label(device)): \(what): \(error.message)")
        }
    }

    /// A value typed on the command line: JSON when it parses as JSON (`3`, `true`, `null`, `[1, 2]`, `"text"`),
    /// text otherwise.
    static func argument(_ text: String) -> UntypedJSON {
        (try? JSONDecoder().decode(UntypedJSON.self, from: Data(text.utf8))) ?? .string(text)
    }

    /// `Cluster.Command` resolved against the data model, any case; an unknown name is bad input naming what there is.
    static func named(_ text: String) throws(CommandLineError) -> NamedCommand {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw .invalidInput("unknown command '\(text)': write Cluster.Command, e.g. OnOff.Toggle")
        }
        guard
            let cluster = MatterClusters.all.first(where: {
                $0.name.caseInsensitiveCompare(parts[0]) == .orderedSame
            })
        else {
            throw .invalidInput(
                "unknown cluster '\(parts[0])' in '\(text)'"
                    + NearMiss.suggestion(for: String(parts[0]), among: MatterClusters.all.map(\.name))
                    + ": write Cluster.Command, e.g. OnOff.Toggle")
        }
        do throws(MatterServerPayload.Invalid) {
            return try NamedCommand(String(parts[1]), of: cluster)
        } catch {
            throw .invalidInput(error.description)
        }
    }

    /// FIELD=VALUE pairs as the command's name-keyed fields: a name matched to the command's fields whatever its
    /// case, a value read by `argument`.
    static func fields(
        _ pairs: [String], of command: NamedCommand
    ) throws(CommandLineError) -> [String: UntypedJSON] {
        let names = (command.cluster.commandFields[command.command] ?? []).map(\.name)
        var payload: [String: UntypedJSON] = [:]
        for pair in pairs {
            guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
                throw .invalidInput("'\(pair)' is not FIELD=VALUE")
            }
            let given = String(pair[..<equals])
            let name = names.first { $0.caseInsensitiveCompare(given) == .orderedSame } ?? given
            guard payload[name] == nil else { throw .invalidInput("field \(name) is given twice") }
            payload[name] = argument(String(pair[pair.index(after: equals)...]))
        }
        return payload
    }
}
