import MatterTLV

// Matter Core §10.6.8 EventPathIB (a TLV list; every absent part but isUrgent is a wildcard)
public struct EventPathIB: Hashable, Sendable, TLVCodable, CustomStringConvertible {
    public var node: UInt64?
    public var endpoint: UInt16?
    public var cluster: UInt32?
    public var event: UInt32?
    /// Asks the publisher to report this event without waiting for the minimum interval.
    public var isUrgent: Bool?

    public init(
        node: UInt64? = nil, endpoint: UInt16? = nil, cluster: UInt32? = nil, event: UInt32? = nil,
        isUrgent: Bool? = nil
    ) {
        self.node = node
        self.endpoint = endpoint
        self.cluster = cluster
        self.event = event
        self.isUrgent = isUrgent
    }

    public func tlvValue() -> TLVValue {
        .list {
            TLVElement.context(0, node)
            TLVElement.context(1, endpoint)
            TLVElement.context(2, cluster)
            TLVElement.context(3, event)
            TLVElement.context(4, isUrgent)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.listFields()
        self.init(
            node: try fields.optional(0), endpoint: try fields.optional(1), cluster: try fields.optional(2),
            event: try fields.optional(3), isUrgent: try fields.optional(4)
        )
    }

    /// "endpoint 1, cluster 0x0028, event 0x0000"; wildcards show as "*".
    public var description: String {
        "endpoint \(endpoint.map { String($0) } ?? "*"), cluster \(cluster.map(hex32) ?? "*"), event \(event.map(hex32) ?? "*")"
    }
}
