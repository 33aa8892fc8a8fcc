import MatterDataModel
import MatterInteraction
import MatterMessaging
import MatterTLV

/// The request a cluster server is answering: where, for whom, over which session.
public struct ClusterRequest: Sendable {
    public var endpoint: UInt16
    public var context: AccessContext
    public var isFabricFiltered: Bool

    public init(endpoint: UInt16, context: AccessContext, isFabricFiltered: Bool = true) {
        self.endpoint = endpoint
        self.context = context
        self.isFabricFiltered = isFabricFiltered
    }
}

// Matter Core §7.10 Cluster, server side: one cluster instance on one endpoint. It keeps its own attribute values
// and reaches node-wide state (fabrics, fail-safe, commissioning window) through `NodeState`. The engine has
// already checked access, timing and that the attribute or command is in `description`.
public protocol ClusterServer: Sendable {
    var description: ClusterDescription { get }
    func read(
        _ attribute: UInt32, in node: NodeState, request: ClusterRequest
    ) -> Result<TLVValue, InteractionModelStatus>
    /// Writes an attribute `description` lists as writable; reports changes with `node.markChanged`.
    mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus
    mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome
    /// The values that survive a restart (OnOff's state), or nil when the cluster keeps none.
    var persistentState: TLVValue? { get }
    mutating func restore(_ state: TLVElement)
    /// Another cluster of the same endpoint changed something this one follows (`EndpointSignal`).
    mutating func receive(_ signal: EndpointSignal, in node: inout NodeState, endpoint: UInt16)
}

extension ClusterServer {
    public mutating func write(
        _ attribute: UInt32, value: TLVElement, in node: inout NodeState, request: ClusterRequest
    ) -> InteractionModelStatus {
        .unsupportedWrite
    }

    public mutating func invoke(
        _ command: UInt32, fields: TLVElement?, in node: inout NodeState, request: ClusterRequest
    ) -> CommandOutcome {
        .status(.unsupportedCommand)
    }

    public var persistentState: TLVValue? { nil }

    public mutating func restore(_ state: TLVElement) {}

    public mutating func receive(_ signal: EndpointSignal, in node: inout NodeState, endpoint: UInt16) {}

    public var id: UInt32 { description.id }
}

extension AttributeDescription {
    /// The engine's view of a generated attribute definition.
    public init<Value>(_ definition: AttributeDefinition<Value>) {
        self.init(
            id: definition.id.rawValue, readPrivilege: AccessPrivilege(definition.readPrivilege ?? .view),
            writePrivilege: definition.writePrivilege.map(AccessPrivilege.init),
            requiresTimedWrite: definition.requiresTimedWrite)
    }
}

extension CommandDescription {
    /// The engine's view of a generated command.
    public init<Command: ClusterCommand>(_ command: Command.Type) {
        self.init(
            id: Command.id.rawValue, privilege: AccessPrivilege(Command.invokePrivilege),
            requiresTimedInvoke: Command.requiresTimedInvoke)
    }
}

extension AccessPrivilege {
    public init(_ privilege: Privilege) {
        self = AccessPrivilege(rawValue: privilege.rawValue) ?? .administer
    }
}

extension ClusterCommand {
    /// The command's fields, decoded; nil (INVALID_COMMAND) when absent or malformed.
    public static func decode(_ fields: TLVElement?) -> Self? {
        guard let fields else { return nil }
        return try? Self(tlv: fields)
    }
}

extension ClusterCommandResponse {
    /// This response as an invoke outcome.
    public var outcome: CommandOutcome {
        .response(commandID: Self.id.rawValue, fields: tlvValue())
    }
}
