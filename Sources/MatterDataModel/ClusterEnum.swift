import MatterTLV

// Matter Core §7.18.2 enum8/enum16: a cluster's enumeration, open so that values from newer devices still decode.
/// Generated enums are structs with a constant per known value (`OnOffCluster.StartUpOnOffEnum.toggle`); a value this
/// code does not know is kept as its raw number instead of failing the whole read.
public protocol ClusterEnum: RawRepresentable, Hashable, Sendable, TLVCodable, CustomStringConvertible
where RawValue: FixedWidthInteger & UnsignedInteger & TLVCodable {
    init(rawValue: RawValue)
    /// The spec's name of each known value, for messages people read.
    static var names: [RawValue: String] { get }
}

extension ClusterEnum {
    public func tlvValue() -> TLVValue { rawValue.tlvValue() }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(rawValue: try RawValue(tlv: element))
    }

    /// "NoFailSafe (3)"; "unknown value 200" for a value the generated code does not name.
    public var description: String {
        Self.names[rawValue].map { "\($0) (\(rawValue))" } ?? "unknown value \(rawValue)"
    }
}
