// ITU-T X.690 §8.1 and §10 (DER restrictions): decodes bytes into a node tree.
//
// Only definite lengths in their shortest form and tag numbers in their shortest form are
// accepted, so encoding a parsed tree gives back exactly the bytes that were parsed: the exact
// "to be signed" bytes of a certificate are the re-encoding of its parsed node.
public enum DERParser {
    /// Parses exactly one value; bytes after it are an error.
    public static func parse(_ bytes: [UInt8]) throws(DERError) -> DERNode {
        var cursor = DERCursor(bytes: bytes, offset: 0, end: bytes.count)
        let node = try cursor.readNode(depth: 0)
        guard cursor.offset == bytes.count else {
            throw .trailingBytes(offset: cursor.offset, count: bytes.count - cursor.offset)
        }
        return node
    }
}

/// Reads nodes between `offset` and `end`; recursion is bounded by `CertificateLimits.maximumDERDepth`.
private struct DERCursor {
    let bytes: [UInt8]
    var offset: Int
    let end: Int

    private var remaining: Int { end - offset }

    mutating func readNode(depth: Int) throws(DERError) -> DERNode {
        let nodeOffset = offset
        let tag = try readTag()
        let length = try readLength()
        guard length <= remaining else {
            throw .truncated(needed: length, offset: offset, remaining: remaining)
        }
        let contentEnd = offset + length
        defer { offset = contentEnd }
        guard tag.isConstructed else {
            return DERNode(tag: tag, primitive: Array(bytes[offset..<contentEnd]))
        }
        guard depth < CertificateLimits.maximumDERDepth else {
            throw .nestingTooDeep(limit: CertificateLimits.maximumDERDepth, offset: nodeOffset)
        }
        var inner = DERCursor(bytes: bytes, offset: offset, end: contentEnd)
        var members: [DERNode] = []
        while inner.offset < contentEnd {
            members.append(try inner.readNode(depth: depth + 1))
        }
        return DERNode(tag: tag, members: members)
    }

    // ITU-T X.690 §8.1.2: low tag numbers in bits 5–1, else 0x1F and base-128 octets.
    private mutating func readTag() throws(DERError) -> DERTag {
        let identifierOffset = offset
        let identifier = try readByte()
        let tagClass = DERTag.TagClass(rawValue: identifier >> 6) ?? .universal
        let constructed = identifier & 0x20 != 0
        var number = UInt32(identifier & 0x1F)
        if number == 0x1F {
            number = 0
            while true {
                let octet = try readByte()
                // §8.1.2.4.2 c: the first subsequent octet shall not be 0x80 (a leading zero group).
                if number == 0 && octet == 0x80 {
                    throw .nonMinimalTagNumber(offset: identifierOffset)
                }
                number = number << 7 | UInt32(octet & 0x7F)
                guard number <= CertificateLimits.maximumDERTagNumber else {
                    throw .tagNumberTooLarge(offset: identifierOffset)
                }
                if octet & 0x80 == 0 { break }
            }
            // Numbers below 31 must use the single-octet form.
            guard number >= 0x1F else { throw .nonMinimalTagNumber(offset: identifierOffset) }
        }
        return DERTag(tagClass, number: number, constructed: constructed)
    }

    // ITU-T X.690 §8.1.3 and §10.1: definite lengths in the fewest octets.
    private mutating func readLength() throws(DERError) -> Int {
        let lengthOffset = offset
        let first = try readByte()
        if first < 0x80 {
            return Int(first)
        }
        let octets = Int(first & 0x7F)
        if octets == 0 {
            throw .indefiniteLength(offset: lengthOffset)
        }
        guard octets <= CertificateLimits.maximumDERLengthOctets else {
            throw .lengthTooLong(octets: octets, offset: lengthOffset)
        }
        var length = 0
        for _ in 0..<octets {
            length = length << 8 | Int(try readByte())
        }
        // The long form is only for lengths above 127, and without leading zero octets.
        guard length >= 0x80, length >> (8 * (octets - 1)) != 0 else {
            throw .nonMinimalLength(offset: lengthOffset)
        }
        return length
    }

    private mutating func readByte() throws(DERError) -> UInt8 {
        guard remaining >= 1 else {
            throw .truncated(needed: 1, offset: offset, remaining: remaining)
        }
        defer { offset += 1 }
        return bytes[offset]
    }
}
