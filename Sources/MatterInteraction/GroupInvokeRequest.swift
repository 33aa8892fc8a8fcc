import MatterTLV

// Matter Core §8.8.2 (group invoke) and §10.6.11 CommandPathIB: an InvokeRequestMessage sent to a group leaves the
// endpoint out of every command path; each member acts on every endpoint of its own that is in the group.
/// An invoke sent to a group: commands without endpoints, and no response asked for.
public struct GroupInvokeRequest: InteractionMessage {
    public static let opcode = InteractionModelOpcode.invokeRequest

    /// One command for the group's endpoints.
    public struct Command: Hashable, Sendable {
        public var cluster: UInt32
        public var command: UInt32
        /// The command's fields structure; absent for a command without fields.
        public var fields: TLVElement?

        public init(cluster: UInt32, command: UInt32, fields: TLVElement? = nil) {
            self.cluster = cluster
            self.command = command
            self.fields = fields
        }
    }

    public var commands: [Command]

    public init(commands: [Command]) {
        self.commands = commands
    }

    public func tlvValue() -> TLVValue {
        .structure {
            // A group message is never answered (§8.8.2), so the request says so.
            TLVElement.context(0, true)
            TLVElement.context(1, false)
            TLVElement(
                tag: .context(2),
                .array(
                    commands.map { command in
                        TLVElement(
                            .structure {
                                TLVElement(
                                    tag: .context(0),
                                    .list {
                                        TLVElement.context(1, command.cluster)
                                        TLVElement.context(2, command.command)
                                    })
                                TLVElement.context(1, data: command.fields)
                            })
                    }))
            TLVElement.context(InteractionConstants.revisionTag, InteractionConstants.interactionModelRevision)
        }
    }

    /// Reads an InvokeRequest whose command paths name no endpoint; one that names an endpoint is not a group's.
    public init(tlv element: TLVElement) throws(TLVError) {
        let members = try element.structure()
        self.init(commands: try members.required(2, as: [Command].self))
    }
}

extension GroupInvokeRequest.Command: TLVDecodable {
    /// A CommandDataIB (§10.6.12) whose path (§10.6.11) has no endpoint.
    public init(tlv element: TLVElement) throws(TLVError) {
        let data = try element.structure()
        guard let pathElement = data.members.first(where: { $0.tag == .context(0) }) else { throw .missingField(0) }
        let path = try pathElement.listFields()
        if try path.optional(0, as: UInt16.self) != nil {
            throw .inField(0, .typeMismatch(expected: .null, found: .unsignedInteger))
        }
        self.init(cluster: try path.required(1), command: try path.required(2), fields: data.optionalData(1))
    }
}
