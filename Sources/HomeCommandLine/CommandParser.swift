/// Walks the argument list against the command table: subcommands first, then options and arguments.
enum CommandParser {
    enum Outcome {
        case run(CommandSpec, ParsedArguments)
        case help(CommandSpec, path: [String])
    }

    static func parse(
        _ arguments: [String], root: CommandSpec, progress: @escaping @Sendable (String) -> Void = { _ in },
        output: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(CommandLineError) -> Outcome {
        var command = root
        var path = [root.name]
        var remaining = arguments[...]
        while let next = remaining.first, let subcommand = command.subcommands.first(where: { $0.name == next }) {
            command = subcommand
            path.append(subcommand.name)
            remaining = remaining.dropFirst()
        }
        if remaining.contains(where: { $0 == "--help" || $0 == "-h" }) || command.run == nil && remaining.isEmpty {
            return .help(command, path: path)
        }
        guard command.run != nil else {
            throw .usage(
                "unknown command '\(remaining.first ?? "")' for '\(path.joined(separator: " "))'", commandPath: path)
        }

        var parsed = ParsedArguments(commandPath: path)
        parsed.progress = progress
        parsed.output = output
        var positionals: [String] = []
        while let token = remaining.popFirst() {
            guard token.hasPrefix("--") else {
                positionals.append(token)
                continue
            }
            let body = token.dropFirst(2)
            let name = String(body.prefix { $0 != "=" })
            guard let option = command.options.first(where: { $0.name == name }) else {
                throw .usage("unknown option '--\(name)'", commandPath: path)
            }
            if option.isFlag {
                guard !body.contains("=") else { throw .usage("--\(name) takes no value", commandPath: path) }
                parsed.flags.insert(name)
            } else if let equals = body.firstIndex(of: "=") {
                parsed.record(name, String(body[body.index(after: equals)...]))
            } else if let value = remaining.popFirst() {
                parsed.record(name, value)
            } else {
                throw .usage("--\(name) needs a value", commandPath: path)
            }
        }
        if let last = command.arguments.last, last.isRepeating, positionals.count >= command.arguments.count {
            parsed.repeatedArguments[last.name] = Array(positionals[(command.arguments.count - 1)...])
            positionals = Array(positionals.prefix(command.arguments.count))
        }
        guard positionals.count <= command.arguments.count else {
            throw .usage("unexpected argument '\(positionals[command.arguments.count])'", commandPath: path)
        }
        if positionals.count < command.arguments.count, !command.arguments[positionals.count].isOptional {
            throw .usage("missing \(command.arguments[positionals.count].name)", commandPath: path)
        }
        for (argument, value) in zip(command.arguments, positionals) {
            parsed.arguments[argument.name] = value
        }
        return .run(command, parsed)
    }
}
