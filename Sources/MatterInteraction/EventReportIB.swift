import MatterTLV

// Matter Core §10.6.10 EventReportIB: either a status (tag 0) or an event (tag 1).
public enum EventReportIB: Hashable, Sendable, TLVCodable {
    case status(EventStatusIB)
    case data(EventDataIB)

    public func tlvValue() -> TLVValue {
        switch self {
        case .status(let status): .structure { TLVElement.context(0, status) }
        case .data(let data): .structure { TLVElement.context(1, data) }
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        if let status = try fields.optional(0, as: EventStatusIB.self) {
            self = .status(status)
        } else {
            self = .data(try fields.required(1))
        }
    }
}
