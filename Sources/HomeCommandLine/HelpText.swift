/// Renders a command's help from its table entry, in the layout swift-argument-parser made familiar.
enum HelpText {
    private static let columnWidth = 26

    static func render(_ command: CommandSpec, path: [String]) -> String {
        var lines = ["OVERVIEW: \(command.summary)", ""]
        let invocation = path.joined(separator: " ")
        if command.run == nil {
            lines.append("USAGE: \(invocation) <command>")
            lines += ["", "COMMANDS:"]
            lines += command.subcommands.map { row($0.name, $0.summary) }
        } else {
            let arguments = command.arguments.map { argument in
                let name = argument.name + (argument.isRepeating ? " …" : "")
                return argument.isOptional ? "[\(name)]" : name
            }
            let options = command.options.map { option in
                let usage = "--\(option.name)" + (option.valueName.map { " \($0)" } ?? "")
                return option.isRequired ? usage : "[\(usage)]"
            }
            lines.append("USAGE: " + ([invocation] + arguments + options).joined(separator: " "))
            if !command.arguments.isEmpty {
                lines += ["", "ARGUMENTS:"]
                lines += command.arguments.map { row($0.name, $0.help) }
            }
            lines += ["", "OPTIONS:"]
            lines += command.options.map { option in
                row("--\(option.name)" + (option.valueName.map { " \($0)" } ?? ""), option.help)
            }
        }
        lines.append(row("-h, --help", "Show help information."))
        return lines.joined(separator: "\n") + "\n"
    }

    private static func row(_ name: String, _ help: String) -> String {
        let label = "  " + name
        let padding =
            label.count < columnWidth
            ? String(repeating: " ", count: columnWidth - label.count)
            : "\n" + String(repeating: " ", count: columnWidth)
        return label + padding + help
    }
}
