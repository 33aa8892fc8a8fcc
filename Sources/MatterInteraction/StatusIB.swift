import MatterTLV

// Matter Core §10.6.17 StatusIB: an Interaction Model status and, for cluster-specific failures, the cluster's code.
public struct StatusIB: Hashable, Sendable, TLVCodable, CustomStringConvertible {
    public var status: InteractionModelStatus
    public var clusterStatus: UInt8?

    public init(status: InteractionModelStatus, clusterStatus: UInt8? = nil) {
        self.status = status
        self.clusterStatus = clusterStatus
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, status)
            TLVElement.context(1, clusterStatus)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(status: try fields.required(0), clusterStatus: try fields.optional(1))
    }

    /// "FAILURE (…), cluster status 0x03".
    public var description: String {
        clusterStatus.map { "\(status), cluster status 0x\(String($0, radix: 16, uppercase: true).leftPadded(to: 2))" }
            ?? status.description
    }
}
