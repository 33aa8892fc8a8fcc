import HomeAPI
import HomeHub
import HomeRecords
import MatterInteraction

/// `home show DEVICE`: everything about one device, with every attribute value of its node read live.
enum ShowCommand {
    static let show = CommandSpec(
        name: "show",
        summary:
            "Show a device: types, tags, room, vendor, connectivity, locality and, read live, every attribute of its node's endpoints and the commands each cluster accepts.",
        arguments: [LiveCommands.deviceArgument],
        options: [
            .init(name: "json", valueName: nil, help: "Print one JSON object instead of text."),
            HubCommands.interfaceOption, HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            let home = try await HomeAPICommands.open(arguments, interfaces: HubCommands.interfaceNames(arguments))
            let found = try await HomeAPICommands.device(arguments.argument("DEVICE"), in: home)
            let nodeID = found.address.nodeID
            let records = home.hub.model.devices(of: nodeID) ?? []
            guard let device = records.first(where: { $0.id == found.address }) else {
                throw .invalidInput("no device \"\(arguments.argument("DEVICE"))\" (see 'home devices')")
            }
            let nodeEndpoints: [EndpointDeviceType]
            let nodeTags: [EndpointSemanticTag]
            do throws(HomeError) {
                (nodeEndpoints, nodeTags) = try await found.nodeEndpoints()
            } catch {
                return CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(error.message)\n")
            }
            let otherDevices = Dictionary(
                records.filter { $0.id != device.id }.map { ($0.id.endpoint, $0.name) },
                uniquingKeysWith: { first, _ in first })
            // The whole node: every endpoint's every attribute is what this command shows, from the hub's cache.
            let state = await LiveConnectivity.states(of: [found], in: home)[nodeID] ?? .connecting
            let details = DeviceDetails(
                device: device, nodeEndpoints: nodeEndpoints, nodeTags: nodeTags, otherDevices: otherDevices,
                state: state, cache: home.hub.model.view(of: nodeID)?.cache ?? AttributeCache())
            return .success(arguments.flags.contains("json") ? details.json.rendered + "\n" : details.text)
        }
    )
}
