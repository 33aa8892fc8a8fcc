import HomeAPI

/// `home add`: the Home API's add-device flow, as an app runs it: prepare a session on the structure, perform a
/// `MatterAddDeviceRequest` with the terminal interaction, then complete it, or cancel it when anything failed.
/// `home grant`: who else may run it.
enum AddCommand {
    static let add = CommandSpec(
        name: "add",
        summary: "Add a Matter device to the home through the Home API, asking on the terminal for what is not given.",
        arguments: [
            .init(
                name: "CODE", help: "The device's MT: QR code payload or manual pairing code (asked when left out).",
                isOptional: true)
        ],
        options: [
            .init(
                name: "room", valueName: "ROOM", help: "The room to put it in (created when new); asked when left out."),
            .init(name: "name", valueName: "NAME", help: "The device's name; asked when left out."),
            .init(
                name: "structure", valueName: "NAME",
                help: "The structure to add it to (needed when the home has several)."),
            HubCommands.interfaceOption,
            .init(
                name: "paa-trust-store", valueName: "DIR",
                help: "Directory of trusted PAA certificates (default: the state directory's paa/)."),
            HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            // The home comes from the arguments, never from `Home.configure`: that is process-wide, and commands
            // run side by side in one process (the tests) would open each other's state.
            let home = try await HomeAPICommands.open(
                arguments, interfaces: HubCommands.interfaceNames(arguments),
                paaTrustStore: arguments.values["paa-trust-store"])
            do {
                let ids = try await run(arguments, in: home)
                return .success(ids.sorted().joined(separator: "\n") + "\n")
            } catch {
                return CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(error)\n")
            }
        }
    )

    static let grant = CommandSpec(
        name: "grant",
        summary:
            "Let another local user add devices to a structure (or, with --revoke, stop letting them); the hub's owner only.",
        arguments: [.init(name: "UID", help: "The user's numeric ID (see 'id -u NAME').")],
        options: [
            .init(name: "structure", valueName: "NAME", help: "The structure (needed when the home has several)."),
            .init(
                name: "revoke", valueName: nil, help: "Take the grant back; it takes effect at the user's next call."),
            HubCommands.stateOption,
        ],
        run: { arguments throws(CommandLineError) in
            guard let uid = UInt32(arguments.argument("UID")) else {
                throw .invalidInput("UID '\(arguments.argument("UID"))' is not a numeric user ID")
            }
            let home = try await HomeAPICommands.open(arguments)
            do {
                let structure = try await structure(arguments, in: home)
                if arguments.flags.contains("revoke") {
                    try await structure.revokeCommissioning(fromUser: uid)
                    return .success("user \(uid) may no longer add devices to \(structure.name)\n")
                }
                try await structure.grantCommissioning(toUser: uid)
                return .success("user \(uid) may add devices to \(structure.name)\n")
            } catch {
                return CommandOutput(exitCode: 1, standardOutput: "", standardError: "error: \(error)\n")
            }
        }
    )

    private static func run(_ arguments: ParsedArguments, in home: Home) async throws(HomeError) -> Set<String> {
        let structure = try await structure(arguments, in: home)
        let code = arguments.arguments["CODE"]
        let request = MatterAddDeviceRequest(
            topology: .init(ecosystemName: "swift-home", homes: [.init(displayName: structure.name)]),
            setupPayload: code)
        try await structure.prepareForMatterCommissioning()
        do {
            try await request.perform(
                handler: HomeMatterCommissioner(home: home),
                interaction: TerminalInteraction(room: arguments.values["room"], name: arguments.values["name"]))
            return try structure.completeMatterCommissioning()
        } catch {
            structure.cancelMatterCommissioning()
            throw error
        }
    }

    /// The structure --structure names, or the home's only one.
    private static func structure(_ arguments: ParsedArguments, in home: Home) async throws(HomeError) -> Structure {
        let structures = try await home.structures().list()
        let structure: Structure
        if let wanted = arguments.values["structure"] {
            guard let named = structures.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) else {
                throw HomeError(
                    .notFound,
                    "no structure named \"\(wanted)\" (the home has: \(structures.map(\.name).sorted().joined(separator: ", ")))"
                )
            }
            structure = named
        } else {
            guard let only = structures.first, structures.count == 1 else {
                throw HomeError(
                    .invalidArgument, "the home has \(structures.count) structures: choose one with --structure NAME")
            }
            structure = only
        }
        return structure
    }
}
