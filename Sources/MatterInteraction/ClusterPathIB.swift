import MatterTLV

// Matter Core §10.6.7 ClusterPathIB (a TLV list)
public struct ClusterPathIB: Hashable, Sendable, TLVCodable {
    public var node: UInt64?
    public var endpoint: UInt16
    public var cluster: UInt32

    public init(node: UInt64? = nil, endpoint: UInt16, cluster: UInt32) {
        self.node = node
        self.endpoint = endpoint
        self.cluster = cluster
    }

    public func tlvValue() -> TLVValue {
        .list {
            TLVElement.context(0, node)
            TLVElement.context(1, endpoint)
            TLVElement.context(2, cluster)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.listFields()
        self.init(node: try fields.optional(0), endpoint: try fields.required(1), cluster: try fields.required(2))
    }
}
