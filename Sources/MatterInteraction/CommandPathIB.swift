import MatterTLV

// Matter Core §10.6.11 CommandPathIB (a TLV list). The endpoint is required here: this client invokes on one
// endpoint of one node (group invokes, which leave it out, are not supported).
public struct CommandPathIB: Hashable, Sendable, TLVCodable, CustomStringConvertible {
    public var endpoint: UInt16
    public var cluster: UInt32
    public var command: UInt32

    public init(endpoint: UInt16, cluster: UInt32, command: UInt32) {
        self.endpoint = endpoint
        self.cluster = cluster
        self.command = command
    }

    public func tlvValue() -> TLVValue {
        .list {
            TLVElement.context(0, endpoint)
            TLVElement.context(1, cluster)
            TLVElement.context(2, command)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.listFields()
        self.init(endpoint: try fields.required(0), cluster: try fields.required(1), command: try fields.required(2))
    }

    /// "cluster 0x0006 command 0x0002 on endpoint 1".
    public var description: String {
        "cluster \(hex32(cluster)) command \(hex32(command)) on endpoint \(endpoint)"
    }
}
