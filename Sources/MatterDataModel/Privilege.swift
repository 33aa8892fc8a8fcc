// Matter Core §6.6.2.1 Privileges: what an access control entry grants, from least to most.
public enum Privilege: UInt8, Hashable, Comparable, Sendable, CustomStringConvertible {
    case view = 1
    case proxyView = 2
    case operate = 3
    case manage = 4
    case administer = 5

    public static func < (lhs: Privilege, rhs: Privilege) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String {
        switch self {
        case .view: "view"
        case .proxyView: "proxy view"
        case .operate: "operate"
        case .manage: "manage"
        case .administer: "administer"
        }
    }
}
