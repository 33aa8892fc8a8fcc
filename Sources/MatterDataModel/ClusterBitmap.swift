import MatterTLV

// Matter Core §7.18.2 bitmap8…bitmap64: a cluster's bitmap (a feature map too) as an option set.
/// Bits this code does not name are kept, so a bitmap from a newer device round-trips unchanged.
public protocol ClusterBitmap: OptionSet, Hashable, Sendable, TLVCodable
where RawValue: FixedWidthInteger & UnsignedInteger & TLVCodable {}

extension ClusterBitmap {
    public func tlvValue() -> TLVValue { rawValue.tlvValue() }

    public init(tlv element: TLVElement) throws(TLVError) {
        self.init(rawValue: try RawValue(tlv: element))
    }
}
