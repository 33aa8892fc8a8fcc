// Matter Core §6.6 Access Control: the hook through which the engine asks, before each
// read, write, invoke and event report, whether the subject holds the privilege on the target cluster.
/// Decides access; the engine refuses what it denies with UNSUPPORTED_ACCESS (concrete paths) or leaves it out
/// (wildcard expansion). `DataModelProvider` refines it, with a default that allows everything, so that the
/// device's access control list lives beside its other state.
public protocol AccessChecker {
    func isAllowed(_ request: AccessRequest, for context: AccessContext) -> Bool
}

/// One access decision: a privilege on one cluster instance (the request target of §6.6).
public struct AccessRequest: Hashable, Sendable {
    public var cluster: ConcreteClusterPath
    public var privilege: AccessPrivilege

    public init(cluster: ConcreteClusterPath, privilege: AccessPrivilege) {
        self.cluster = cluster
        self.privilege = privilege
    }
}
