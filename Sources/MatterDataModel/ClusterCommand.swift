import MatterTLV

// Matter Core §7.15 Command: a command's request fields, with what invoking it takes.
public protocol ClusterCommand: Hashable, Sendable, TLVCodable {
    associatedtype Cluster: ClusterDefinition
    /// A `ClusterCommandResponse`, or `DefaultSuccess` when the server answers with a status only.
    associatedtype Response: Sendable
    static var id: CommandID { get }
    static var name: String { get }
    static var invokePrivilege: Privilege { get }
    /// Matter Core §8.7 Timed Interaction: the invoke must follow a TimedRequest.
    static var requiresTimedInvoke: Bool { get }
    /// Fabric-scoped commands need a session on a fabric (not PASE alone).
    static var isFabricScoped: Bool { get }
}

extension ClusterCommand {
    public static var invokePrivilege: Privilege { .operate }
    public static var requiresTimedInvoke: Bool { false }
    public static var isFabricScoped: Bool { false }
}

// Matter Core §7.15 Command: a response command a server generates.
public protocol ClusterCommandResponse: Hashable, Sendable, TLVCodable {
    associatedtype Cluster: ClusterDefinition
    static var id: CommandID { get }
    static var name: String { get }
}

// Matter Core §8.8.3 Invoke Response: the answer to a command whose only response is a status.
public struct DefaultSuccess: Hashable, Sendable {
    public init() {}
}
