/// The `home` command-line tool: its command table and the entry point `main` calls.
public enum HomeCommand {
    static let root = CommandSpec(
        name: "home",
        summary: "swift-home: a Matter hub and Home API for Swift.",
        subcommands: [
            DemoCommand.demo, OnboardingCommands.group, DiscoveryCommands.discover, HubCommands.commission,
            AddCommand.add, AddCommand.grant,
            HubCommands.devices, ShowCommand.show, HomeAPICommands.rename, HomeAPICommands.rooms, HomeAPICommands.room,
            GroupCommands.groups, GroupCommands.group, HomeAPICommands.move, HomeAPICommands.remove, HubCommands.ping,
            LiveCommands.on, LiveCommands.off, LiveCommands.toggle, LiveCommands.level, LiveCommands.read,
            InvokeCommand.invoke, InvokeCommand.write, NetworkCommands.network, UpdateCommands.updates,
            UpdateCommands.update,
            LiveCommands.watch, SharingCommands.share, SharingCommands.fabrics, ServeCommand.serve,
            StatusCommand.status,
        ]
    )

    /// Runs one invocation; never exits the process, so tests can call it. `progress` receives live lines,
    /// `output` the lines a long-running command (`home watch`) prints as they happen.
    public static func run(
        _ arguments: [String], progress: @escaping @Sendable (String) -> Void = { _ in },
        output: @escaping @Sendable (String) -> Void = { _ in }
    ) async -> CommandOutput {
        do throws(CommandLineError) {
            switch try CommandParser.parse(arguments, root: root, progress: progress, output: output) {
            case .help(let command, let path):
                return .success(HelpText.render(command, path: path))
            case .run(let command, let parsed):
                guard let run = command.run else { return .success(HelpText.render(command, path: parsed.commandPath)) }
                // The homes the command opened stop being their home's hub as it ends, before it returns: a
                // command run next (in this process: the tests) must not attach to a hub that is going away.
                let opened = OpenedHomes()
                let output = await OpenedHomes.$current.withValue(opened) {
                    do throws(CommandLineError) {
                        return try await run(parsed)
                    } catch {
                        return CommandOutput(
                            exitCode: error.exitCode, standardOutput: "", standardError: "error: \(error.message)\n")
                    }
                }
                await opened.close()
                return output
            }
        } catch {
            return CommandOutput(
                exitCode: error.exitCode, standardOutput: "", standardError: "error: \(error.message)\n")
        }
    }
}
