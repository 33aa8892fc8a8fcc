import MatterTLV

// Matter Core §10.6.15 EventStatusIB: why events at a path could not be reported.
public struct EventStatusIB: Hashable, Sendable, TLVCodable {
    public var path: EventPathIB
    public var status: StatusIB

    public init(path: EventPathIB, status: StatusIB) {
        self.path = path
        self.status = status
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, path)
            TLVElement.context(1, status)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(path: try fields.required(0), status: try fields.required(1))
    }
}
