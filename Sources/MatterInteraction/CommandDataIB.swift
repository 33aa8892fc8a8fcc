import MatterTLV

// Matter Core §10.6.12 CommandDataIB: a command (or command response) and its fields.
public struct CommandDataIB: Hashable, Sendable, TLVCodable {
    public var path: CommandPathIB
    /// The command's fields structure, anonymous-tagged; absent for a command without fields.
    public var fields: TLVElement?
    /// Pairs responses with requests when one invoke carries several commands.
    public var commandRef: UInt16?

    public init(path: CommandPathIB, fields: TLVElement? = nil, commandRef: UInt16? = nil) {
        self.path = path
        self.fields = fields
        self.commandRef = commandRef
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, path)
            TLVElement.context(1, data: fields)
            TLVElement.context(2, commandRef)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let members = try element.structure()
        self.init(path: try members.required(0), fields: members.optionalData(1), commandRef: try members.optional(2))
    }
}
