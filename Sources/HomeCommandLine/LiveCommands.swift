import Foundation
import HomeAPI
import HomeEngine
import HomeHub
import HomeRecords
import MatterDataModel
import MatterInteraction
import Synchronization

/// `home on|off|toggle|level|read|watch`: devices through the Home API, so through the home's one hub: the process
/// serving the home when one does (its session and subscription to the node), or this one for as long as it runs.
enum LiveCommands {
    static let deviceArgument = CommandSpec.Argument(
        name: "DEVICE", help: "A device ID (see 'home devices') or a device name.")

    static let on = command("on", summary: "Turn a device on (OnOff On), or every device of a room at once.", room: .on)
    {
        (trait: OnOffTrait) throws(HomeError) in
        try await trait.on()
        return "on"
    }

    static let off = command(
        "off", summary: "Turn a device off (OnOff Off), or every device of a room at once.", room: .off
    ) {
        (trait: OnOffTrait) throws(HomeError) in
        try await trait.off()
        return "off"
    }

    static let toggle = command(
        "toggle",
        summary:
            "Toggle a device (OnOff Toggle; On or Off from its cached state when it does not accept Toggle), or every device of a room at once.",
        room: .toggle
    ) { (trait: OnOffTrait) throws(HomeError) in
        switch try await trait.toggleFallingBackToOnOff() {
        case .toggled: "toggled"
        case .turnedOn: "on (it does not accept Toggle; it was off)"
        case .turnedOff: "off (it does not accept Toggle; it was on)"
        }
    }

    static let roomOption = CommandSpec.Option(
        name: "room", valueName: "ROOM",
        help:
            "Every device of the room instead of one device: one Matter group message reaches the devices that hold the room's group (all act at once), unicast the rest; each device's confirmation through its subscription is printed, with how long it took."
    )
    static let groupOption = CommandSpec.Option(
        name: "group", valueName: "GROUP",
        help: "Every device of the named group (see 'home groups') instead of one device, as --room does.")

    /// The room or group a command names instead of a device, if any; both together are refused.
    private static func groupTarget(_ arguments: ParsedArguments) throws(CommandLineError) -> (String, isRoom: Bool)? {
        switch (arguments.values["room"], arguments.values["group"]) {
        case (let room?, nil): (room, true)
        case (nil, let group?): (group, false)
        case (_?, _?): throw .invalidInput("give --room or --group, not both")
        case (nil, nil): nil
        }
    }

    static let level = CommandSpec(
        name: "level",
        summary:
            "Set a device's level (LevelControl MoveToLevelWithOnOff, no transition), or every device's of a room at once (home level --room ROOM LEVEL).",
        arguments: [
            .init(
                name: "DEVICE", help: "A device ID (see 'home devices') or a device name; with --room, the LEVEL.",
                isOptional: true),
            .init(name: "LEVEL", help: "0 to 254.", isOptional: true),
        ],
        options: [roomOption, groupOption, HubCommands.interfaceOption, HubCommands.stateOption],
        run: { arguments throws(CommandLineError) in
            let target = try groupTarget(arguments)
            // With --room or --group the one argument is the level.
            let text: String
            switch (target, arguments.arguments["DEVICE"], arguments.arguments["LEVEL"]) {
            case (_?, let level?, nil), (nil, _?, let level?): text = level
            case (_?, _?, _?): throw .invalidInput("with --room or --group, give only the LEVEL, not a device")
            case (_?, nil, _): throw .invalidInput("give the LEVEL, 0 to 254")
            case (nil, _, _): throw .invalidInput("give a DEVICE and a LEVEL, or --room ROOM and a LEVEL")
            }
            guard let level = UInt8(text), level <= 254 else {
                throw .invalidInput("level '\(text)' is not a number from 0 to 254")
            }
            if let target { return try await sendToGroup(target, .level(level), arguments) }
            return try await withTrait(arguments) { (trait: LevelControlTrait) throws(HomeError) in
                try await trait.moveToLevelWithOnOff(
                    level: level, transitionTime: .value(0), optionsMask: [], optionsOverride: [])
                return "level \(level)"
            }
        }
    )

    static let read = CommandSpec(
        name: "read",
        summary:
            "Print an attribute of a device from its node's live attribute cache; without one, every attribute of the device's endpoint.",
        arguments: [
            deviceArgument,
            .init(
                name: "ATTRIBUTE",
                help:
                    "Cluster.Attribute, e.g. OnOff.OnOff, LevelControl.CurrentLevel, BasicInformation.VendorName; without it, every attribute the device's endpoint reported, one per line.",
                isOptional: true),
        ],
        options: [HubCommands.interfaceOption, HubCommands.stateOption],
        run: { arguments throws(CommandLineError) in
            let name = try arguments.arguments["ATTRIBUTE"].map { text throws(CommandLineError) in
                try AttributeName.resolving(text, example: "OnOff.OnOff or BasicInformation.VendorName")
            }
            let home = try await HomeAPICommands.open(arguments, interfaces: HubCommands.interfaceNames(arguments))
            let device = try await HomeAPICommands.device(arguments.argument("DEVICE"), in: home)
            await device.follow()
            guard let name else { return listAttributes(of: device) }
            for endpoint in readEndpoints(device) {
                if let value = device.cachedValue(
                    endpoint: endpoint, cluster: name.cluster.rawValue, attribute: name.attribute.rawValue)
                {
                    return .success(AttributeValueText.render(value) + "\n")
                }
            }
            return failure("\(label(device)): \(name) is not reported on endpoint \(readEndpoints(device).first ?? 0)")
        }
    )

    static let watch = CommandSpec(
        name: "watch",
        summary:
            "Print one line per change as it happens (time, device, attribute, new value), every event (time, device, event, fields) and every connectivity change, until Ctrl-C.",
        arguments: [
            .init(
                name: "DEVICE", help: "Only this device (ID or name); without it, every device of the home.",
                isOptional: true)
        ],
        options: [
            .init(name: "duration", valueName: "SECONDS", help: "Stop after this many seconds instead of at Ctrl-C."),
            .init(
                name: "max-interval", valueName: "SECONDS",
                help:
                    "The subscriptions' max interval ceiling, 1 to 3600 (default \(HubTiming.liveMaxIntervalCeiling)): a device that disappears shows offline within this plus its MRP retransmission time (about 7 s at default MRP intervals)."
            ),
            HubCommands.interfaceOption, HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let duration = try arguments.values["duration"].map { text throws(CommandLineError) in
                guard let seconds = Double(text), seconds > 0, seconds <= 1e9 else {
                    throw .invalidInput("duration '\(text)' is not a positive number of seconds")
                }
                return Duration.milliseconds(Int64(seconds * 1000))
            }
            var settings = NodeConnection.Settings()
            if let text = arguments.values["max-interval"] {
                guard let seconds = UInt16(text), (1...3600).contains(seconds) else {
                    throw .invalidInput("max interval '\(text)' is not a number of seconds from 1 to 3600")
                }
                settings.maxIntervalCeiling = seconds
            }
            var configuration = Home.Configuration(
                stateDirectory: arguments.values["state"], networkInterfaces: HubCommands.interfaceNames(arguments))
            configuration.liveness = .seconds(Int(settings.maxIntervalCeiling))
            let home: Home
            do throws(HomeError) {
                home = try await Home.connect(configuration)
            } catch {
                throw .invalidInput("cannot open the hub's state: \(error.message)")
            }
            let only: HomeDevice? =
                if let text = arguments.arguments["DEVICE"] {
                    try await HomeAPICommands.device(text, in: home)
                } else { nil }
            let output = arguments.output
            let changes = home.hub.model.changes(.all)
            let watcher = Task {
                let lines = WatchLines(
                    model: home.hub.model, only: only.map { ($0.address.nodeID, $0.address.endpoint) })
                for line in lines.start() { output(line) }
                for await update in changes {
                    guard case .changes(let changes) = update else { continue }
                    for line in lines.render(changes) { output(line) }
                }
            }
            // Followed once the watch listens, so the first contact's lines are not missed.
            await withTaskGroup(of: Void.self) { group in
                let devices = (try? await home.devices().list()) ?? []
                for device in only.map({ [$0] }) ?? Array(devices) { group.addTask { await device.follow() } }
            }
            if let duration {
                try? await Task.sleep(for: duration)
            } else {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            }
            watcher.cancel()
            await home.close()
            return .success("")
        }
    )

    // MARK: Helpers

    /// A command on one device's OnOff trait, returning what to print after the device's label.
    private static func command(
        _ name: String, summary: String, room command: GroupCommand.Command,
        _ body: @escaping @Sendable (OnOffTrait) async throws(HomeError) -> String
    ) -> CommandSpec {
        CommandSpec(
            name: name, summary: summary,
            arguments: [
                .init(
                    name: "DEVICE", help: "A device ID (see 'home devices') or a device name; none with --room.",
                    isOptional: true)
            ],
            options: [roomOption, groupOption, HubCommands.interfaceOption, HubCommands.stateOption],
            run: { arguments throws(CommandLineError) in
                switch (try groupTarget(arguments), arguments.arguments["DEVICE"]) {
                case (let target?, nil): try await sendToGroup(target, command, arguments)
                case (nil, _?): try await withTrait(arguments, body)
                case (_?, _?): throw .invalidInput("give a DEVICE or --room ROOM (or --group GROUP), not both")
                case (nil, nil):
                    throw .invalidInput("give a DEVICE, or --room ROOM (or --group GROUP) for every device of it")
                }
            })
    }

    /// `home on|off|toggle|level --room ROOM` (or `--group GROUP`): the command to the room or group through the Home
    /// API, then one line per device: how it was reached and when it confirmed. Exits 1 when a device did not confirm.
    private static func sendToGroup(
        _ target: (String, isRoom: Bool), _ command: GroupCommand.Command, _ arguments: ParsedArguments
    ) async throws(CommandLineError) -> CommandOutput {
        let home = try await HomeAPICommands.open(arguments, interfaces: HubCommands.interfaceNames(arguments))
        let name: String
        let send: () async throws(HomeError) -> Room.CommandResult
        if target.isRoom {
            let room = try await HomeAPICommands.room(target.0, in: home)
            (name, send) = (room.name, { () throws(HomeError) in try await room.send(command) })
        } else {
            let group = try await GroupCommands.group(target.0, in: home)
            (name, send) = (group.name, { () throws(HomeError) in try await group.send(command) })
        }
        let result: Room.CommandResult
        do throws(HomeError) {
            result = try await send()
        } catch  where error.code == .failedPrecondition || error.code == .notFound {
            throw .invalidInput("\(name): \(error.message)")
        } catch {
            return failure("\(name): \(error.message)")
        }
        return RoomCommandText.render(result, room: name, command: command)
    }

    /// Finds DEVICE through the Home API and runs `body` on its endpoint's trait, from the node's stored cache when it
    /// has the trait (else once the node has had its first contact). An unknown device is bad input (exit 2), and so is a device whose endpoint does not serve the
    /// trait's cluster (its Descriptor ServerList says so before anything is sent); an unreachable node or a refused
    /// command exits 1 saying why.
    private static func withTrait<T: Trait>(
        _ arguments: ParsedArguments, _ body: @Sendable (T) async throws(HomeError) -> String
    ) async throws(CommandLineError) -> CommandOutput {
        let home = try await HomeAPICommands.open(arguments, interfaces: HubCommands.interfaceNames(arguments))
        let device = try await HomeAPICommands.device(arguments.argument("DEVICE"), in: home)
        // A one-shot command: the stored cache says what the endpoint serves, and the command goes as soon as the
        // node's session is up.
        guard let trait = await device.liveTrait(T.self, waitingForFirstContact: false) else {
            let cluster = ClusterRegistry.standard.describe(cluster: T.Cluster.id)
            guard let served = device.servedClusters else {
                return failure("\(label(device)) is unreachable: its clusters are not known yet")
            }
            let names = served.map { ClusterRegistry.standard.describe(cluster: $0) }.joined(separator: ", ")
            throw .invalidInput("\(label(device)) has no \(cluster) (its clusters: \(names))")
        }
        do {
            return .success("\(label(device)): \(try await body(trait))\n")
        } catch  where error.code == .unavailable {
            return failure("\(label(device)) is unreachable: \(error.message)")
        } catch {
            return failure("\(label(device)): \(error.message)")
        }
    }

    /// `home read DEVICE`: every attribute the device's endpoint reported, `Cluster.Attribute: value` per line in ID
    /// order, the names `home read` and `home write` take.
    private static func listAttributes(of device: HomeDevice) -> CommandOutput {
        let endpoint = device.address.endpoint
        let paths = (device.cachedPaths ?? []).filter { $0.endpoint == endpoint }
        guard !paths.isEmpty else {
            return failure("\(label(device)) is unreachable: its attributes are not known yet")
        }
        let lines = paths.sorted { ($0.cluster, $0.attribute) < ($1.cluster, $1.attribute) }.map { path in
            let value = device.cachedValue(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute)
            return AttributeName.describe(path) + ": " + (value.map(AttributeValueText.render) ?? "-")
        }
        return .success(lines.joined(separator: "\n") + "\n")
    }

    /// Where `home read` looks: the device's endpoint, then the root endpoint, where node-wide clusters (Basic
    /// Information…) live.
    private static func readEndpoints(_ device: HomeDevice) -> [UInt16] {
        Set([device.address.endpoint, 0]).sorted(by: >)
    }

    static func label(_ device: HomeDevice) -> String {
        label(name: device.name, id: device.id)
    }

    static func label(_ device: DeviceRecord) -> String {
        label(name: device.name, id: device.id.description)
    }

    private static func label(name: String, id: String) -> String {
        "\(name) (\(id))"
    }

    private static func failure(_ message: String) -> CommandOutput {
        CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(message)\n")
    }
}

/// Turns the home model's changes into `home watch` lines: each node's connectivity as the watch starts, then each
/// change of connectivity, attribute value and event. What a node's first report after it was followed brings (its
/// priming) is not a change and prints nothing; what a later priming brings after a reconnection is.
final class WatchLines: Sendable {
    private let model: HomeModel
    /// One device only: its node and endpoint.
    private let only: (nodeID: UInt64, endpoint: UInt16)?
    private let online = Mutex<Set<UInt64>>([])

    init(model: HomeModel, only: (nodeID: UInt64, endpoint: UInt16)?) {
        self.model = model
        self.only = only
    }

    /// The connectivity of each node already known when the watch starts (a hub serving the home knows them).
    func start(at date: Date = Date()) -> [String] {
        let snapshot = model.snapshot
        var lines: [String] = []
        for nodeID in snapshot.devices.keys.sorted() where only == nil || only?.nodeID == nodeID {
            guard let state = snapshot.views[nodeID]?.state, state != .connecting else { continue }
            if state == .online { online.withLock { _ = $0.insert(nodeID) } }
            lines.append("\(LiveLineText.time(date))  \(subject(nodeID))  \(state)")
        }
        return lines
    }

    func render(_ changes: [HomeModel.Change], at date: Date = Date()) -> [String] {
        let time = LiveLineText.time(date)
        // A node's first priming comes in the batch that brings it online: only nodes online before it print values.
        let wasOnline = online.withLock { $0 }
        var lines: [String] = []
        for change in changes {
            guard let nodeID = change.nodeID, only == nil || only?.nodeID == nodeID else { continue }
            switch change {
            case .connectivity(_, .connecting):
                continue
            case .connectivity(_, let state):
                if state == .online { online.withLock { _ = $0.insert(nodeID) } }
                lines.append("\(time)  \(subject(nodeID))  \(state)")
            case .attributes(_, let endpoint, let values):
                guard wasOnline.contains(nodeID), only == nil || only?.endpoint == endpoint else {
                    continue
                }
                let device = name(DeviceID(nodeID: nodeID, endpoint: endpoint))
                for (path, value) in values.sorted(by: {
                    ($0.key.cluster, $0.key.attribute) < ($1.key.cluster, $1.key.attribute)
                }) {
                    lines.append(
                        "\(time)  \(device)  \(AttributeName.describe(path))  \(value.map(AttributeValueText.render) ?? "(removed)")"
                    )
                }
            case .event(_, let event):
                guard only == nil || only?.endpoint == event.endpoint else { continue }
                lines.append(
                    "\(time)  \(name(DeviceID(nodeID: nodeID, endpoint: event.endpoint)))  \(EventText.render(event))")
            default:
                continue
            }
        }
        return lines
    }

    private func subject(_ nodeID: UInt64) -> String {
        let devices = model.devices(of: nodeID) ?? []
        if let only, let device = devices.first(where: { $0.id.endpoint == only.endpoint }) {
            return "\(device.name) (\(device.id))"
        }
        return LiveLineText.node(nodeID, deviceNames: devices.map(\.name))
    }

    private func name(_ id: DeviceID) -> String {
        model.devices(of: id.nodeID)?.first { $0.id == id }.map { "\($0.name) (\(id))" } ?? id.description
    }
}
