import MatterTLV

// Matter Core §10.6.14 CommandStatusIB: the status of a command that has no response fields, or that failed.
public struct CommandStatusIB: Hashable, Sendable, TLVCodable {
    public var path: CommandPathIB
    public var status: StatusIB
    public var commandRef: UInt16?

    public init(path: CommandPathIB, status: StatusIB, commandRef: UInt16? = nil) {
        self.path = path
        self.status = status
        self.commandRef = commandRef
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, path)
            TLVElement.context(1, status)
            TLVElement.context(2, commandRef)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(path: try fields.required(0), status: try fields.required(1), commandRef: try fields.optional(2))
    }
}
