/// The path an interaction error applies to.
public enum InteractionPath: Hashable, Sendable, CustomStringConvertible {
    case attribute(AttributePathIB)
    case event(EventPathIB)
    case command(CommandPathIB)

    public var description: String {
        switch self {
        case .attribute(let path): path.description
        case .event(let path): path.description
        case .command(let path): path.description
        }
    }
}
