import MatterTLV

// Matter Core §10.6.5 AttributeReportIB: either a status (tag 0) or data (tag 1) for one path.
public enum AttributeReportIB: Hashable, Sendable, TLVCodable {
    case status(AttributeStatusIB)
    case data(AttributeDataIB)

    public var path: AttributePathIB {
        switch self {
        case .status(let status): status.path
        case .data(let data): data.path
        }
    }

    public func tlvValue() -> TLVValue {
        switch self {
        case .status(let status): .structure { TLVElement.context(0, status) }
        case .data(let data): .structure { TLVElement.context(1, data) }
        }
    }

    /// A report carrying both takes its status: the publisher could not give the value.
    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        if let status = try fields.optional(0, as: AttributeStatusIB.self) {
            self = .status(status)
        } else {
            self = .data(try fields.required(1))
        }
    }
}
