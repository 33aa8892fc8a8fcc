// Matter Core §9.10.5 AccessControlEntryPrivilegeEnum: what an access control entry grants, each level
// including the ones below it (ProxyView aside, which only proxies use).
public enum AccessPrivilege: UInt8, Hashable, Sendable, Comparable, CustomStringConvertible {
    case view = 1
    case proxyView = 2
    case operate = 3
    case manage = 4
    case administer = 5

    public static func < (lhs: AccessPrivilege, rhs: AccessPrivilege) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    public var description: String {
        switch self {
        case .view: "View"
        case .proxyView: "ProxyView"
        case .operate: "Operate"
        case .manage: "Manage"
        case .administer: "Administer"
        }
    }
}
