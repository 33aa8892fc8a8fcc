// Typed reading of DER values (ITU-T X.690 §8 and §11); each accessor checks the tag and the DER rules.
extension DERNode {
    /// The content octets of a primitive node with this tag.
    public func primitiveContents(_ expected: DERTag) throws(DERError) -> [UInt8] {
        guard tag == expected, case .primitive(let bytes) = content else {
            throw .unexpectedTag(expected: expected.description, found: tag)
        }
        return bytes
    }

    /// The members of a constructed node with this tag.
    public func members(_ expected: DERTag) throws(DERError) -> [DERNode] {
        guard tag == expected, case .constructed(let members) = content else {
            throw .unexpectedTag(expected: expected.description, found: tag)
        }
        return members
    }

    /// The members of a constructed node with this tag, which must number exactly `count`.
    public func members(_ expected: DERTag, count: ClosedRange<Int>, in name: String) throws(DERError) -> [DERNode] {
        let members = try members(expected)
        guard count.contains(members.count) else {
            let expectation =
                count.lowerBound == count.upperBound
                ? "\(count.lowerBound)" : "\(count.lowerBound) to \(count.upperBound)"
            throw .unexpectedMemberCount(in: name, expected: expectation, found: members.count)
        }
        return members
    }

    // ITU-T X.690 §11.1: FALSE is 0x00 and TRUE is 0xFF, one octet.
    public func boolean() throws(DERError) -> Bool {
        let bytes = try primitiveContents(.boolean)
        guard bytes.count == 1, bytes[0] == 0x00 || bytes[0] == 0xFF else {
            throw .invalidValue(type: "BOOLEAN", reason: "content must be the single octet 0x00 or 0xFF")
        }
        return bytes[0] == 0xFF
    }

    /// ITU-T X.690 §8.3.2: the two's-complement content octets, checked to be minimal.
    public func integerBytes() throws(DERError) -> [UInt8] {
        let bytes = try primitiveContents(.integer)
        guard let first = bytes.first else {
            throw .invalidValue(type: "INTEGER", reason: "no content octets")
        }
        if bytes.count > 1 {
            let second = bytes[1]
            guard !(first == 0x00 && second & 0x80 == 0), !(first == 0xFF && second & 0x80 != 0) else {
                throw .invalidValue(type: "INTEGER", reason: "not in its shortest form")
            }
        }
        return bytes
    }

    /// A non-negative INTEGER that fits in 64 bits.
    public func unsignedInteger() throws(DERError) -> UInt64 {
        let bytes = try integerBytes()
        guard bytes[0] & 0x80 == 0 else {
            throw .invalidValue(type: "INTEGER", reason: "negative where a non-negative value is required")
        }
        let magnitude = bytes.first == 0 ? Array(bytes.dropFirst()) : bytes
        guard magnitude.count <= 8 else {
            throw .invalidValue(type: "INTEGER", reason: "\(magnitude.count) octets do not fit in 64 bits")
        }
        return magnitude.reduce(0) { $0 << 8 | UInt64($1) }
    }

    public func null() throws(DERError) {
        guard try primitiveContents(.null).isEmpty else {
            throw .invalidValue(type: "NULL", reason: "content must be empty")
        }
    }

    public func objectIdentifier() throws(DERError) -> ASN1ObjectIdentifier {
        try ASN1ObjectIdentifier(derContents: primitiveContents(.objectIdentifier))
    }

    /// ITU-T X.690 §8.6 and §11.2: the bits as octets plus the count of unused trailing bits, which must be zero bits.
    public func bitString() throws(DERError) -> (bytes: [UInt8], unusedBits: UInt8) {
        let contents = try primitiveContents(.bitString)
        guard let unusedBits = contents.first, unusedBits <= 7 else {
            throw .invalidValue(type: "BIT STRING", reason: "missing or out-of-range unused-bits octet")
        }
        let bytes = Array(contents.dropFirst())
        if let last = bytes.last {
            guard last & UInt8((1 << unusedBits) - 1) == 0 else {
                throw .invalidValue(type: "BIT STRING", reason: "unused bits are not zero")
            }
        } else if unusedBits != 0 {
            throw .invalidValue(type: "BIT STRING", reason: "an empty bit string has no unused bits")
        }
        return (bytes, unusedBits)
    }

    /// A BIT STRING that must hold whole octets (keys and signatures).
    public func octetAlignedBitString() throws(DERError) -> [UInt8] {
        let (bytes, unusedBits) = try bitString()
        guard unusedBits == 0 else {
            throw .invalidValue(type: "BIT STRING", reason: "\(unusedBits) unused bits where whole octets are required")
        }
        return bytes
    }

    public func octetString() throws(DERError) -> [UInt8] {
        try primitiveContents(.octetString)
    }

    /// A UTF8String, PrintableString or IA5String, with the string type that carried it.
    public func directoryString() throws(DERError) -> (value: String, kind: DirectoryStringKind) {
        guard case .primitive(let bytes) = content,
            let kind = DirectoryStringKind.allCases.first(where: { $0.tag == tag })
        else {
            throw .unexpectedTag(expected: "UTF8String, PrintableString or IA5String", found: tag)
        }
        guard let value = String(validating: bytes, as: UTF8.self), kind.allows(value) else {
            throw .invalidValue(type: kind.tag.description, reason: "characters outside the type's character set")
        }
        return (value, kind)
    }
}

/// The ASN.1 string types of directory names (RFC 5280 §4.1.2.4).
public enum DirectoryStringKind: Hashable, Sendable, CaseIterable {
    case utf8, printable, ia5

    public var tag: DERTag {
        switch self {
        case .utf8: .utf8String
        case .printable: .printableString
        case .ia5: .ia5String
        }
    }

    // ITU-T X.680 §41.4 PrintableString characters; IA5 is 7-bit ASCII.
    func allows(_ value: String) -> Bool {
        switch self {
        case .utf8:
            return true
        case .ia5:
            return value.utf8.allSatisfy { $0 < 0x80 }
        case .printable:
            return value.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"):
                    true
                default:
                    " '()+,-./:=?".utf8.contains(byte)
                }
            }
        }
    }

    func node(_ value: String) -> DERNode {
        DERNode(tag: tag, primitive: Array(value.utf8))
    }
}
