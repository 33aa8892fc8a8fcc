import MatterTLV

// Matter Core §10.6.16 AttributeStatusIB: the outcome of a read or write at one attribute path.
public struct AttributeStatusIB: Hashable, Sendable, TLVCodable {
    public var path: AttributePathIB
    public var status: StatusIB

    public init(path: AttributePathIB, status: StatusIB) {
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
