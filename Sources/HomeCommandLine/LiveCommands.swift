import Foundation
import HomeHub
import MatterDataModel
import MatterInteraction

/// `home on|off|toggle|level|read|watch`: devices through the hub's live connection to their node (CASE session,
/// one wildcard subscription keeping the attribute cache current).
enum LiveCommands {
    static let deviceArgument = CommandSpec.Argument(
        name: "DEVICE", help: "A device ID (see 'home devices') or a device name.")

    static let on = command("on", summary: "Turn a device on (OnOff On).", watching: [OnOffCluster.Attributes.onOff.id])
    { connection, device throws(NodeConnectionError) in
        try await connection.invoke(OnOffCluster.Commands.On(), endpoint: device.id.endpoint)
        return "\(label(device)): on"
    }

    static let off = command(
        "off", summary: "Turn a device off (OnOff Off).", watching: [OnOffCluster.Attributes.onOff.id]
    ) { connection, device throws(NodeConnectionError) in
        try await connection.invoke(OnOffCluster.Commands.Off(), endpoint: device.id.endpoint)
        return "\(label(device)): off"
    }

    static let toggle = command(
        "toggle",
        summary: "Toggle a device (OnOff Toggle; On or Off from its cached state when it does not accept Toggle).",
        watching: [OnOffCluster.Attributes.onOff.id, OnOffCluster.Attributes.acceptedCommandList.id]
    ) { connection, device throws(NodeConnectionError) in
        switch try await connection.toggle(endpoint: device.id.endpoint) {
        case .toggle: "\(label(device)): toggled"
        case .on: "\(label(device)): on (it does not accept Toggle; it was off)"
        case .off: "\(label(device)): off (it does not accept Toggle; it was on)"
        }
    }

    static let level = CommandSpec(
        name: "level",
        summary: "Set a device's level (LevelControl MoveToLevelWithOnOff, no transition).",
        arguments: [deviceArgument, .init(name: "LEVEL", help: "0 to 254.")],
        options: [HubCommands.interfaceOption, HubCommands.stateOption],
        run: { arguments throws(CommandLineError) in
            let text = arguments.argument("LEVEL")
            guard let level = UInt8(text), level <= 254 else {
                throw .invalidInput("level '\(text)' is not a number from 0 to 254")
            }
            let currentLevel = LevelControlCluster.Attributes.currentLevel
            return try await withConnection(
                arguments, requiring: LevelControlCluster.id, paths: { [currentLevel.path(endpoint: $0.endpoint)] }
            ) { connection, device throws(NodeConnectionError) in
                try await connection.invoke(
                    LevelControlCluster.Commands.MoveToLevelWithOnOff(
                        level: level, transitionTime: .value(0), optionsMask: [], optionsOverride: []),
                    endpoint: device.id.endpoint)
                return "\(label(device)): level \(level)"
            }
        }
    )

    static let read = CommandSpec(
        name: "read",
        summary: "Print an attribute of a device from its node's live attribute cache.",
        arguments: [
            deviceArgument,
            .init(
                name: "ATTRIBUTE",
                help: "Cluster.Attribute, e.g. OnOff.OnOff, LevelControl.CurrentLevel, BasicInformation.VendorName."),
        ],
        options: [HubCommands.interfaceOption, HubCommands.stateOption],
        run: { arguments throws(CommandLineError) in
            let text = arguments.argument("ATTRIBUTE")
            guard let name = AttributeName(text) else {
                throw .invalidInput(
                    "unknown attribute '\(text)': write Cluster.Attribute, e.g. OnOff.OnOff or BasicInformation.VendorName"
                )
            }
            let paths = { @Sendable (device: DeviceID) in
                readEndpoints(device).map {
                    AttributePathIB(endpoint: $0, cluster: name.cluster.rawValue, attribute: name.attribute.rawValue)
                }
            }
            return try await withConnection(arguments, paths: paths) { connection, device throws(NodeConnectionError) in
                for endpoint in readEndpoints(device.id) {
                    if let value = await connection.cache.value(
                        endpoint: endpoint, cluster: name.cluster.rawValue, attribute: name.attribute.rawValue)
                    {
                        return AttributeValueText.render(value)
                    }
                }
                throw .missingAttribute(name.description, endpoint: device.id.endpoint)
            }
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
            let hub = try HubCommands.open(arguments)
            let devices: [DeviceRecord]
            let only: DeviceRecord?
            do {
                devices = try hub.devices()
                only = try arguments.arguments["DEVICE"].map { try hub.device(named: $0) }
            } catch {
                throw .invalidInput("\(error)")
            }
            let connections: NodeConnections
            do {
                connections = try NodeConnections(
                    hub: hub, interfaces: HubCommands.interfaceNames(arguments), settings: settings)
            } catch {
                return failure("cannot open the hub's transport: \(error)")
            }
            let nodes = only.map { [$0.id.nodeID] } ?? Array(Set(devices.map(\.id.nodeID))).sorted()
            var watchers: [Task<Void, Never>] = []
            for nodeID in nodes {
                do {
                    let connection = try await connections.connection(to: nodeID)
                    let events = await connection.events()
                    let lines = WatchLines(nodeID: nodeID, devices: devices, only: only)
                    let output = arguments.output
                    watchers.append(
                        Task {
                            for await event in events {
                                for line in await lines.render(event, from: connection) { output(line) }
                            }
                        })
                } catch {
                    await connections.stopAll()
                    return failure("\(error)")
                }
            }
            if let duration {
                try? await Task.sleep(for: duration)
            } else {
                while !Task.isCancelled { try? await Task.sleep(for: .seconds(3600)) }
            }
            await connections.stopAll()
            for watcher in watchers { await watcher.value }
            return .success("")
        }
    )

    // MARK: Helpers

    /// A command on one device that needs these OnOff attributes of its endpoint: the body runs once the device's
    /// node is online and returns the line to print.
    private static func command(
        _ name: String, summary: String, watching attributes: [AttributeID],
        _ body: @escaping @Sendable (NodeConnection, DeviceRecord) async throws(NodeConnectionError) -> String
    ) -> CommandSpec {
        let paths = { @Sendable (device: DeviceID) in
            attributes.map {
                AttributePathIB(endpoint: device.endpoint, cluster: OnOffCluster.id.rawValue, attribute: $0.rawValue)
            }
        }
        return CommandSpec(
            name: name, summary: summary, arguments: [deviceArgument],
            options: [HubCommands.interfaceOption, HubCommands.stateOption],
            run: { arguments throws(CommandLineError) in
                try await withConnection(arguments, requiring: OnOffCluster.id, paths: paths, body)
            })
    }

    /// Opens the hub, finds DEVICE, connects to its node subscribing to `paths` only (a one-shot command needs no
    /// more, and leaves the hub's whole-node subscriptions alone) and runs `body` once it is online. An unknown
    /// device is bad input (exit 2), and so is a device whose endpoint does not serve `cluster` (its Descriptor
    /// ServerList, read with the paths, says so before anything is sent); an unreachable node or a failed command
    /// exits 1 saying why.
    private static func withConnection(
        _ arguments: ParsedArguments, requiring cluster: ClusterID? = nil,
        paths: @Sendable (DeviceID) -> [AttributePathIB],
        _ body: @Sendable (NodeConnection, DeviceRecord) async throws(NodeConnectionError) -> String
    ) async throws(CommandLineError) -> CommandOutput {
        let hub = try HubCommands.open(arguments)
        let device: DeviceRecord
        do {
            device = try hub.device(named: arguments.argument("DEVICE"))
        } catch {
            throw .invalidInput("\(error)")
        }
        let connections: NodeConnections
        do {
            connections = try NodeConnections(hub: hub, interfaces: HubCommands.interfaceNames(arguments))
        } catch {
            return failure("cannot open the hub's transport: \(error)")
        }
        let serverList = DescriptorCluster.Attributes.serverList
        let watched = paths(device.id) + (cluster == nil ? [] : [serverList.path(endpoint: device.id.endpoint)])
        let result: CommandOutput
        do {
            let connection = try await connections.connection(to: device.id.nodeID, attributePaths: watched)
            try await connection.connected()
            if let cluster, let served = try? await connection.cache.value(serverList, endpoint: device.id.endpoint),
                !served.contains(cluster)
            {
                await connections.stopAll()
                let names = served.map { ClusterRegistry.standard.describe(cluster: $0) }.joined(separator: ", ")
                throw CommandLineError.invalidInput(
                    "\(label(device)) has no \(ClusterRegistry.standard.describe(cluster: cluster)) (its clusters: \(names))"
                )
            }
            result = .success(try await body(connection, device) + "\n")
        } catch let error as CommandLineError {
            throw error
        } catch let error as NodeConnectionError {
            if case .unreachable(_, let reason) = error {
                result = failure("\(label(device)) is unreachable: \(reason)")
            } else {
                result = failure("\(label(device)): \(error)")
            }
        } catch {
            result = failure("\(error)")
        }
        await connections.stopAll()
        return result
    }

    /// Where `home read` looks: the device's endpoint, then the root endpoint, where node-wide clusters (Basic
    /// Information…) live.
    private static func readEndpoints(_ device: DeviceID) -> [UInt16] {
        Set([device.endpoint, 0]).sorted(by: >)
    }

    static func label(_ device: DeviceRecord) -> String {
        "\(device.name) (\(device.id))"
    }

    private static func failure(_ message: String) -> CommandOutput {
        CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(message)\n")
    }
}

/// Turns one node's connection events into `home watch` lines. Its first report (the priming of the whole node)
/// is not a change and prints nothing; what a later priming brings after a reconnection is.
actor WatchLines {
    private let nodeID: UInt64
    private let names: [DeviceID: String]
    private let only: DeviceRecord?
    private var hasBeenOnline = false

    init(nodeID: UInt64, devices: [DeviceRecord], only: DeviceRecord?) {
        self.nodeID = nodeID
        self.names = Dictionary(devices.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        self.only = only
    }

    func render(
        _ event: NodeConnection.Event, from connection: NodeConnection, at date: Date = Date()
    ) async -> [String] {
        let time = LiveLineText.time(date)
        switch event {
        case .connectivity(.connecting):
            return []
        case .connectivity(let state):
            if state == .online { hasBeenOnline = true }
            let subject = only.map(LiveCommands.label) ?? nodeLabel
            return ["\(time)  \(subject)  \(state)"]
        case .attributes(let paths):
            guard hasBeenOnline else { return [] }
            let cache = await connection.cache
            return paths.filter { only == nil || $0.endpoint == only?.id.endpoint }
                .sorted { ($0.endpoint, $0.cluster, $0.attribute) < ($1.endpoint, $1.cluster, $1.attribute) }
                .map { path in
                    let id = DeviceID(nodeID: nodeID, endpoint: path.endpoint)
                    let device = names[id].map { "\($0) (\(id))" } ?? id.description
                    let value = cache.value(endpoint: path.endpoint, cluster: path.cluster, attribute: path.attribute)
                    return
                        "\(time)  \(device)  \(AttributeName.describe(path))  \(value.map(AttributeValueText.render) ?? "(removed)")"
                }
        case .events(let events):
            return events.filter { only == nil || $0.endpoint == only?.id.endpoint }.map { event in
                let id = DeviceID(nodeID: nodeID, endpoint: event.endpoint)
                let device = names[id].map { "\($0) (\(id))" } ?? id.description
                return "\(time)  \(device)  \(EventText.render(event))"
            }
        }
    }

    private var nodeLabel: String {
        LiveLineText.node(
            nodeID, deviceNames: names.filter { $0.key.nodeID == nodeID }.sorted { $0.key < $1.key }.map(\.value))
    }
}
