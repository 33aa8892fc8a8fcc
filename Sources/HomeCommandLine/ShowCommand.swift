import HomeHub

/// `home show DEVICE`: everything about one device, with every attribute value of its node read live.
enum ShowCommand {
    static let show = CommandSpec(
        name: "show",
        summary:
            "Show a device: types, tags, room, vendor, connectivity, locality and, read live, every attribute of its node's endpoints.",
        arguments: [LiveCommands.deviceArgument],
        options: [
            .init(name: "json", valueName: nil, help: "Print one JSON object instead of text."),
            HubCommands.interfaceOption, HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let hub = try HubCommands.open(arguments)
            let device: DeviceRecord
            let nodeEndpoints: [EndpointDeviceType]
            let nodeTags: [EndpointSemanticTag]
            let otherDevices: [UInt16: String]
            do {
                device = try hub.device(named: arguments.argument("DEVICE"))
                nodeEndpoints = try hub.store.endpoints(of: device.id.nodeID)
                nodeTags = try hub.store.semanticTags(of: device.id.nodeID)
                otherDevices = Dictionary(
                    try hub.devices().filter { $0.id.nodeID == device.id.nodeID && $0.id != device.id }.map {
                        ($0.id.endpoint, $0.name)
                    },
                    uniquingKeysWith: { first, _ in first })
            } catch {
                throw .invalidInput("\(error)")
            }
            let connections: NodeConnections
            do {
                connections = try NodeConnections(hub: hub, interfaces: HubCommands.interfaceNames(arguments))
            } catch {
                return CommandOutput(
                    exitCode: 1, standardOutput: "", standardError: "error: cannot open the hub's transport: \(error)\n"
                )
            }
            // The whole node: every endpoint's every attribute is what this command shows.
            let details: DeviceDetails
            do {
                let connection = try await connections.connection(to: device.id.nodeID)
                let state = await LiveConnectivity.settle(connection)
                details = DeviceDetails(
                    device: device, nodeEndpoints: nodeEndpoints, nodeTags: nodeTags, otherDevices: otherDevices,
                    state: state, cache: await connection.cache)
            } catch {
                await connections.stopAll()
                return CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(error)\n")
            }
            await connections.stopAll()
            return .success(arguments.flags.contains("json") ? details.json.rendered + "\n" : details.text)
        }
    )
}
