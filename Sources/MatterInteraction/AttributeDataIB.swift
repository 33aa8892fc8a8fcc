import MatterTLV

// Matter Core §10.6.4 AttributeDataIB: a value at a path, with the cluster's data version when reported.
public struct AttributeDataIB: Hashable, Sendable, TLVCodable {
    public var dataVersion: UInt32?
    public var path: AttributePathIB
    /// The value, anonymous-tagged; any TLV type.
    public var data: TLVElement

    public init(dataVersion: UInt32? = nil, path: AttributePathIB, data: TLVElement) {
        self.dataVersion = dataVersion
        self.path = path
        self.data = data
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, dataVersion)
            TLVElement.context(1, path)
            TLVElement.context(2, data: data)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(dataVersion: try fields.optional(0), path: try fields.required(1), data: try fields.requiredData(2))
    }
}
