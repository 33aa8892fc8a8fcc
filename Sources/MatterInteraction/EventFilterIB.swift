import MatterTLV

// Matter Core §10.6.6 EventFilterIB: report only events numbered at least eventMinimum.
public struct EventFilterIB: Hashable, Sendable, TLVCodable {
    public var node: UInt64?
    public var eventMinimum: UInt64

    public init(node: UInt64? = nil, eventMinimum: UInt64) {
        self.node = node
        self.eventMinimum = eventMinimum
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, node)
            TLVElement.context(1, eventMinimum)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(node: try fields.optional(0), eventMinimum: try fields.required(1))
    }
}
