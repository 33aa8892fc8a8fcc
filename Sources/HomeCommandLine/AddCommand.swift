import HomeAPI

/// `home add`: the Home API's add-device flow, as an app runs it: prepare a session on the structure, perform a
/// `MatterAddDeviceRequest` with the terminal interaction, then complete it, or cancel it when anything failed.
enum AddCommand {
    static let add = CommandSpec(
        name: "add",
        summary: "Add a Matter device to the home through the Home API, asking on the terminal for what is not given.",
        arguments: [.init(name: "CODE", help: "The device's MT: QR code payload or manual pairing code (asked when left out).", isOptional: true)],
        options: [
            .init(name: "room", valueName: "ROOM", help: "The room to put it in (created when new); asked when left out."),
            .init(name: "name", valueName: "NAME", help: "The device's name; asked when left out."),
            .init(name: "structure", valueName: "NAME", help: "The structure to add it to (needed when the home has several)."),
            HubCommands.interfaceOption,
            .init(name: "paa-trust-store", valueName: "DIR", help: "Directory of trusted PAA certificates (default: the state directory's paa/)."),
            HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            Home.configure { configuration in
                configuration.stateDirectory = arguments.values["state"]
                configuration.interfaces = HubCommands.interfaceNames(arguments)
                configuration.paaTrustStore = arguments.values["paa-trust-store"]
            }
            do {
                let ids = try await run(arguments)
                return .success(ids.sorted().joined(separator: "\n") + "\n")
            } catch {
                return CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(error)\n")
            }
        }
    )

    private static func run(_ arguments: ParsedArguments) async throws(HomeError) -> Set<String> {
        let home = try await Home.connect()
        let structures = try await home.structures().list()
        let structure: Structure
        if let wanted = arguments.values["structure"] {
            guard let named = structures.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) else {
                throw HomeError(.notFound, "no structure named \"\(wanted)\" (the home has: \(structures.map(\.name).sorted().joined(separator: ", ")))")
            }
            structure = named
        } else {
            guard let only = structures.first, structures.count == 1 else {
                throw HomeError(.invalidArgument, "the home has \(structures.count) structures: choose one with --structure NAME")
            }
            structure = only
        }
        let code = arguments.arguments["CODE"]
        let request = MatterAddDeviceRequest(topology: .init(ecosystemName: "swift-home", homes: [.init(displayName: structure.name)]),
                                             setupPayload: code)
        try await structure.prepareForMatterCommissioning()
        do {
            try await request.perform(handler: HomeMatterCommissioner(home: home),
                                      interaction: TerminalInteraction(room: arguments.values["room"], name: arguments.values["name"]))
            return try structure.completeMatterCommissioning()
        } catch {
            try? await structure.cancelMatterCommissioning()
            throw error
        }
    }
}
