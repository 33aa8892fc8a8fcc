/// One command of the `home` tool, described as data: the parser, the help text and the dispatcher all read it.
struct CommandSpec: Sendable {
    struct Argument: Sendable {
        let name: String
        let help: String
        /// May be left out; optional arguments come last.
        var isOptional = false
        /// The last argument may be given several times (`CODE…`); every value is in `repeatedArguments`.
        var isRepeating = false
    }

    struct Option: Sendable {
        let name: String
        /// nil for a flag that takes no value.
        let valueName: String?
        var isRequired = false
        let help: String
        var isFlag: Bool { valueName == nil }
    }

    let name: String
    let summary: String
    var arguments: [Argument] = []
    var options: [Option] = []
    var subcommands: [CommandSpec] = []
    var run: (@Sendable (ParsedArguments) async throws(CommandLineError) -> CommandOutput)?
}

/// What the parser found for one command.
struct ParsedArguments: Sendable {
    let commandPath: [String]
    var arguments: [String: String] = [:]
    /// Every value of a repeating argument, in order.
    var repeatedArguments: [String: [String]] = [:]
    /// The last value of each option.
    var values: [String: String] = [:]
    /// Every value of each option, in order, for options that may be repeated.
    var repeatedValues: [String: [String]] = [:]
    var flags: Set<String> = []
    /// Where live progress lines go (stderr in the tool); a command's final output still comes back in CommandOutput.
    var progress: @Sendable (String) -> Void = { _ in }
    /// Where a long-running command writes its lines as they happen (stdout in the tool), before it returns.
    var output: @Sendable (String) -> Void = { _ in }

    mutating func record(_ option: String, _ value: String) {
        values[option] = value
        repeatedValues[option, default: []].append(value)
    }

    func argument(_ name: String) -> String { arguments[name] ?? "" }

    func requiredValue(_ option: String) throws(CommandLineError) -> String {
        guard let value = values[option] else {
            throw .usage("missing --\(option)", commandPath: commandPath)
        }
        return value
    }
}

/// What a command produced; `main` writes it out and exits with the code.
public struct CommandOutput: Equatable, Sendable {
    public var exitCode: Int32
    public var standardOutput: String
    public var standardError: String

    static func success(_ text: String) -> CommandOutput {
        CommandOutput(exitCode: 0, standardOutput: text, standardError: "")
    }
}

/// Why a command did not run: one line on stderr, exit status 2 for a refusal of the command line or of its input,
/// 1 for a failure of what it needed (the hub's store).
enum CommandLineError: Error, Equatable {
    case usage(String, commandPath: [String])
    case invalidInput(String)
    case failed(String)

    var message: String {
        switch self {
        case .usage(let message, let path): "\(message) (see '\(path.joined(separator: " ")) --help')"
        case .invalidInput(let message), .failed(let message): message
        }
    }

    var exitCode: Int32 {
        switch self {
        case .usage, .invalidInput: 2
        case .failed: 1
        }
    }
}
