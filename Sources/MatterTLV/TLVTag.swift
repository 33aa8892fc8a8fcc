// Matter Core §A.2 Tags (forms in §A.7.2 Tag Control Field): a tag, independent of its encoded width.
public enum TLVTag: Hashable, Sendable {
    case anonymous
    case context(UInt8)
    /// Encoded in the 2-byte form when the tag fits in 16 bits, else the 4-byte form.
    case commonProfile(UInt32)
    /// Encoded in the 2-byte form when the tag fits in 16 bits, else the 4-byte form.
    case implicitProfile(UInt32)
    /// Encoded in the 6-byte form when `tag` fits in 16 bits, else the 8-byte form.
    case fullyQualified(vendorID: UInt16, profile: UInt16, tag: UInt32)
}
