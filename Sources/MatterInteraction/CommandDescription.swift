// Matter Core §7.15 Command qualities (access, "T" timed invoke): one accepted command of a server cluster.
public struct CommandDescription: Hashable, Sendable {
    public var id: UInt32
    public var privilege: AccessPrivilege
    /// Invokes outside a timed interaction get NEEDS_TIMED_INTERACTION.
    public var requiresTimedInvoke: Bool

    public init(id: UInt32, privilege: AccessPrivilege = .operate, requiresTimedInvoke: Bool = false) {
        self.id = id
        self.privilege = privilege
        self.requiresTimedInvoke = requiresTimedInvoke
    }
}
