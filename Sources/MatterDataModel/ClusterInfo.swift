// Matter Core §7.10 Cluster: a cluster's identifiers and names, for display and lookup at run time.
public struct ClusterInfo: Hashable, Sendable {
    public let id: ClusterID
    public let name: String
    public let revision: UInt16
    public let attributes: [AttributeID: String]
    /// Commands the server accepts (requests).
    public let acceptedCommands: [CommandID: String]
    /// Commands the server generates (responses); their IDs are a separate space from the accepted ones.
    public let generatedCommands: [CommandID: String]
    public let events: [EventID: String]
    /// Each event's fields by context tag, as the typed event names them (`newPosition`).
    public let eventFields: [EventID: [UInt8: String]]
    /// The fields of each accepted command's request, in tag order.
    public let commandFields: [CommandID: [FieldInfo]]
    /// The fields of each generated command (response), in tag order.
    public let responseFields: [CommandID: [FieldInfo]]
    /// How each attribute a client may write is written, in attribute ID order.
    public let writableAttributes: [AttributeID: WritableAttribute]
    /// The accepted commands the specification requires to be invoked timed (Matter Core §8.7.2: a TimedRequest
    /// first), such as a door lock's.
    public let timedCommands: Set<CommandID>
    /// Matter Core §6.6.2.1: the accepted commands that take more than Operate to invoke (Manage, Administer); any
    /// other takes Operate.
    public let commandPrivileges: [CommandID: Privilege]

    public init(
        id: ClusterID, name: String, revision: UInt16, attributes: [AttributeID: String],
        acceptedCommands: [CommandID: String], generatedCommands: [CommandID: String], events: [EventID: String],
        eventFields: [EventID: [UInt8: String]] = [:], commandFields: [CommandID: [FieldInfo]] = [:],
        responseFields: [CommandID: [FieldInfo]] = [:], writableAttributes: [AttributeID: WritableAttribute] = [:],
        timedCommands: Set<CommandID> = [], commandPrivileges: [CommandID: Privilege] = [:]
    ) {
        self.commandPrivileges = commandPrivileges
        self.commandFields = commandFields
        self.responseFields = responseFields
        self.writableAttributes = writableAttributes
        self.timedCommands = timedCommands
        self.id = id
        self.name = name
        self.revision = revision
        self.attributes = attributes
        self.acceptedCommands = acceptedCommands
        self.generatedCommands = generatedCommands
        self.events = events
        self.eventFields = eventFields
    }
}

extension ClusterInfo {
    /// The privilege invoking `command` takes (Operate unless the cluster says more).
    public func invokePrivilege(_ command: CommandID) -> Privilege { commandPrivileges[command] ?? .operate }
}
