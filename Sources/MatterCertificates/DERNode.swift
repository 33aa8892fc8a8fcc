// ITU-T X.690 §8.1.1 Structure of an encoding: identifier, definite length, contents.
/// One DER value: a primitive node holds its content octets, a constructed node its members.
public struct DERNode: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        case primitive([UInt8])
        case constructed([DERNode])
    }

    public var tag: DERTag
    public var content: Content

    /// The tag's constructed bit follows the content, so a node always encodes consistently.
    public init(tag: DERTag, content: Content) {
        var tag = tag
        if case .constructed = content { tag.isConstructed = true } else { tag.isConstructed = false }
        self.tag = tag
        self.content = content
    }

    public init(tag: DERTag, primitive bytes: [UInt8]) {
        self.init(tag: tag, content: .primitive(bytes))
    }

    public init(tag: DERTag, members: [DERNode]) {
        self.init(tag: tag, content: .constructed(members))
    }
}

// Builders for the universal types certificates use (ITU-T X.690 §8.2–§8.19, §11).
extension DERNode {
    public static func sequence(_ members: [DERNode]) -> DERNode {
        DERNode(tag: .sequence, members: members)
    }

    /// ITU-T X.690 §11.6: a SET OF must be sorted by encoding; callers pass one member or sorted members.
    public static func set(_ members: [DERNode]) -> DERNode {
        DERNode(tag: .set, members: members)
    }

    /// EXPLICIT `[number]` tagging: a constructed wrapper around one value.
    public static func explicit(_ number: UInt32, _ member: DERNode) -> DERNode {
        DERNode(tag: .contextSpecific(number, constructed: true), members: [member])
    }

    /// IMPLICIT `[number]` tagging of a primitive value: the value's contents under the context tag.
    public static func implicit(_ number: UInt32, _ bytes: [UInt8]) -> DERNode {
        DERNode(tag: .contextSpecific(number, constructed: false), primitive: bytes)
    }

    // ITU-T X.690 §11.1: DER encodes TRUE as 0xFF.
    public static func boolean(_ value: Bool) -> DERNode {
        DERNode(tag: .boolean, primitive: [value ? 0xFF : 0x00])
    }

    /// An INTEGER whose contents are given two's-complement octets, which must already be minimal.
    public static func integer(twosComplement bytes: [UInt8]) -> DERNode {
        DERNode(tag: .integer, primitive: bytes)
    }

    /// A non-negative INTEGER from big-endian magnitude octets, encoded minimally (ITU-T X.690 §8.3.2).
    public static func integer(unsignedBigEndian magnitude: [UInt8]) -> DERNode {
        var bytes = Array(magnitude.drop { $0 == 0 })
        if bytes.isEmpty || bytes[0] & 0x80 != 0 {
            bytes.insert(0, at: 0)
        }
        return DERNode(tag: .integer, primitive: bytes)
    }

    public static func integer(_ value: UInt64) -> DERNode {
        integer(unsignedBigEndian: (0..<8).map { UInt8(truncatingIfNeeded: value >> UInt64(8 * (7 - $0))) })
    }

    public static func null() -> DERNode {
        DERNode(tag: .null, primitive: [])
    }

    public static func objectIdentifier(_ oid: ASN1ObjectIdentifier) -> DERNode {
        DERNode(tag: .objectIdentifier, primitive: oid.derContents)
    }

    // ITU-T X.690 §8.6.2: the first content octet counts the unused bits of the last octet.
    public static func bitString(_ bytes: [UInt8], unusedBits: UInt8 = 0) -> DERNode {
        DERNode(tag: .bitString, primitive: [unusedBits] + bytes)
    }

    public static func octetString(_ bytes: [UInt8]) -> DERNode {
        DERNode(tag: .octetString, primitive: bytes)
    }

    public static func utf8String(_ string: String) -> DERNode {
        DERNode(tag: .utf8String, primitive: Array(string.utf8))
    }

    public static func printableString(_ string: String) -> DERNode {
        DERNode(tag: .printableString, primitive: Array(string.utf8))
    }

    public static func ia5String(_ string: String) -> DERNode {
        DERNode(tag: .ia5String, primitive: Array(string.utf8))
    }

    /// The members of a constructed node; a primitive node has none.
    public var members: [DERNode] {
        if case .constructed(let members) = content { members } else { [] }
    }
}
