import MatterTLV

// Matter Application Cluster spec §1.3 (enum8 data type): an 8-bit enumeration, an unsigned integer on the wire.
/// A cluster's enum8. Values the table does not name still decode, and describe themselves by number, since a
/// device of a newer revision may send them.
public protocol ClusterEnum: RawRepresentable<UInt8>, TLVCodable, Hashable, Sendable, CustomStringConvertible {
    init(rawValue: UInt8)
    /// The spec's name of each known value.
    static var names: [UInt8: String] { get }
}

extension ClusterEnum {
    public func tlvValue() -> TLVValue { .unsigned(UInt64(rawValue)) }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(rawValue: try UInt8(tlv: element))
    }

    /// "NoFailSafe (3)"; "unknown value 42" for a value the table does not name.
    public var description: String {
        Self.names[rawValue].map { "\($0) (\(rawValue))" } ?? "unknown value \(rawValue)"
    }
}
