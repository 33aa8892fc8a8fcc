/// What stops generation, with where in which input it happened.
enum GeneratorError: Error, Equatable, CustomStringConvertible {
    /// The IDL does not follow the grammar.
    case syntax(line: Int, message: String)
    /// The IDL parses but means something the generator cannot turn into Swift (an unknown type, a clash of names).
    case semantic(line: Int, message: String)
    case deviceTypes(line: Int, message: String)
    case usage(String)
    case io(String)

    var description: String {
        switch self {
        case .syntax(let line, let message): "line \(line): \(message)"
        case .semantic(let line, let message): "line \(line): \(message)"
        case .deviceTypes(let line, let message): "device types, line \(line): \(message)"
        case .usage(let message): message
        case .io(let message): message
        }
    }
}
