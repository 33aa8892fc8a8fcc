import MatterTLV

// Matter Core §10.6.13 InvokeResponseIB: either a response command (tag 0) or a status (tag 1).
public enum InvokeResponseIB: Hashable, Sendable, TLVCodable {
    case command(CommandDataIB)
    case status(CommandStatusIB)

    public func tlvValue() -> TLVValue {
        switch self {
        case .command(let command): .structure { TLVElement.context(0, command) }
        case .status(let status): .structure { TLVElement.context(1, status) }
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        if let status = try fields.optional(1, as: CommandStatusIB.self) {
            self = .status(status)
        } else {
            self = .command(try fields.required(0))
        }
    }
}
