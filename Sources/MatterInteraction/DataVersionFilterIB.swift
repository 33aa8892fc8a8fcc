import MatterTLV

// Matter Core §10.6.3 DataVersionFilterIB: "I already hold this version of this cluster; skip it if unchanged."
public struct DataVersionFilterIB: Hashable, Sendable, TLVCodable {
    public var path: ClusterPathIB
    public var dataVersion: UInt32

    public init(path: ClusterPathIB, dataVersion: UInt32) {
        self.path = path
        self.dataVersion = dataVersion
    }

    public func tlvValue() -> TLVValue {
        .structure {
            TLVElement.context(0, path)
            TLVElement.context(1, dataVersion)
        }
    }

    public init(tlv element: TLVElement) throws(TLVError) {
        let fields = try element.structure()
        self.init(path: try fields.required(0), dataVersion: try fields.required(1))
    }
}
