import MatterTLV

// Matter Core §10.6.2 AttributePathIB (a TLV list; every absent part is a wildcard)
public struct AttributePathIB: Hashable, Sendable, TLVCodable, CustomStringConvertible {
    // Matter Core §10.6.2 ListIndex (nullable): where a list-item path points inside a list attribute.
    public enum ListIndex: Hashable, Sendable {
        /// Null on the wire: append the data as a new item (chunked lists, §10.6.4.3).
        case append
        /// A specific item (deprecated by the spec for reports, still decoded).
        case item(UInt16)
    }

    public var enableTagCompression: Bool?
    public var node: UInt64?
    public var endpoint: UInt16?
    public var cluster: UInt32?
    public var attribute: UInt32?
    public var listIndex: ListIndex?

    public init(
        enableTagCompression: Bool? = nil, node: UInt64? = nil, endpoint: UInt16? = nil, cluster: UInt32? = nil,
        attribute: UInt32? = nil, listIndex: ListIndex? = nil
    ) {
        self.enableTagCompression = enableTagCompression
        self.node = node
        self.endpoint = endpoint
        self.cluster = cluster
        self.attribute = attribute
        self.listIndex = listIndex
    }

    /// The path of one attribute of one cluster instance, or nil when a part is a wildcard.
    public var concrete: ConcreteAttributePath? {
        guard let endpoint, let cluster, let attribute else { return nil }
        return ConcreteAttributePath(endpoint: endpoint, cluster: cluster, attribute: attribute)
    }

    public func tlvValue() -> TLVValue {
        .list {
            TLVElement.context(0, enableTagCompression)
            TLVElement.context(1, node)
            TLVElement.context(2, endpoint)
            TLVElement.context(3, cluster)
            TLVElement.context(4, attribute)
            listIndex.map { index in
                switch index {
                case .append: TLVElement(tag: .context(5), .null)
                case .item(let position): TLVElement.context(5, position)
                }
            }
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.listFields()
        self.init(
            enableTagCompression: try fields.optional(0), node: try fields.optional(1),
            endpoint: try fields.optional(2),
            cluster: try fields.optional(3), attribute: try fields.optional(4)
        )
        if let index = element[context: 5] {
            listIndex = index.value == .null ? .append : .item(try fields.required(5))
        }
    }

    /// "endpoint 1, cluster 0x0006, attribute 0x0000"; wildcards show as "*".
    public var description: String {
        var parts = [
            "endpoint \(endpoint.map { String($0) } ?? "*")",
            "cluster \(cluster.map(hex32) ?? "*")",
            "attribute \(attribute.map(hex32) ?? "*")",
        ]
        switch listIndex {
        case .append: parts.append("appended item")
        case .item(let position): parts.append("item \(position)")
        case nil: break
        }
        if let node { parts.insert("node 0x\(String(node, radix: 16, uppercase: true))", at: 0) }
        return parts.joined(separator: ", ")
    }
}
