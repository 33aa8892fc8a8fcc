// RFC 5280 §4.1 Extension: extnID, critical (DEFAULT FALSE), extnValue (the DER of the extension's own type).
public struct X509Extension: Hashable, Sendable {
    public var identifier: ASN1ObjectIdentifier
    public var isCritical: Bool
    public var value: [UInt8]

    public init(identifier: ASN1ObjectIdentifier, isCritical: Bool, value: [UInt8]) {
        self.identifier = identifier
        self.isCritical = isCritical
        self.value = value
    }

    public init(derNode: DERNode) throws(DERError) {
        let members = try derNode.members(.sequence, count: 2...3, in: "extension")
        identifier = try members[0].objectIdentifier()
        if members.count == 3 {
            // ITU-T X.690 §11.5: DER omits a value equal to its DEFAULT, so an explicit FALSE is not DER.
            guard try members[1].boolean() else {
                throw .invalidValue(type: "extension", reason: "critical FALSE must be omitted in DER")
            }
            isCritical = true
        } else {
            isCritical = false
        }
        value = try members[members.count - 1].octetString()
    }

    public var derNode: DERNode {
        .sequence([.objectIdentifier(identifier)] + (isCritical ? [.boolean(true)] : []) + [.octetString(value)])
    }
}

// RFC 5280 §4.2.1.9 Basic Constraints: cA (DEFAULT FALSE) and pathLenConstraint.
public struct BasicConstraints: Hashable, Sendable {
    public var isCertificateAuthority: Bool
    public var pathLengthConstraint: UInt8?

    public init(isCertificateAuthority: Bool, pathLengthConstraint: UInt8? = nil) {
        self.isCertificateAuthority = isCertificateAuthority
        self.pathLengthConstraint = pathLengthConstraint
    }

    public init(extensionValue: [UInt8]) throws(DERError) {
        var members = try DERParser.parse(extensionValue).members(.sequence, count: 0...2, in: "basic constraints")
        isCertificateAuthority = false
        if members.first?.tag == .boolean {
            guard try members.removeFirst().boolean() else {
                throw .invalidValue(type: "basic constraints", reason: "cA FALSE must be omitted in DER")
            }
            isCertificateAuthority = true
        }
        pathLengthConstraint = nil
        if let pathLength = members.first {
            let value = try pathLength.unsignedInteger()
            guard let narrow = UInt8(exactly: value), members.count == 1 else {
                throw .invalidValue(
                    type: "basic constraints", reason: "path length \(value) above 255 or extra members")
            }
            pathLengthConstraint = narrow
        }
    }

    public var extensionValue: [UInt8] {
        DERWriter.encode(
            .sequence(
                (isCertificateAuthority ? [.boolean(true)] : [])
                    + (pathLengthConstraint.map { [.integer(UInt64($0))] } ?? [])))
    }
}

// RFC 5280 §4.2.1.3 Key Usage; the raw values are Matter Core §6.5.11.2's key-usage bits (bit n = BIT STRING bit n).
public struct KeyUsage: OptionSet, Hashable, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let digitalSignature = KeyUsage(rawValue: 1 << 0)
    public static let nonRepudiation = KeyUsage(rawValue: 1 << 1)
    public static let keyEncipherment = KeyUsage(rawValue: 1 << 2)
    public static let dataEncipherment = KeyUsage(rawValue: 1 << 3)
    public static let keyAgreement = KeyUsage(rawValue: 1 << 4)
    public static let keyCertSign = KeyUsage(rawValue: 1 << 5)
    public static let cRLSign = KeyUsage(rawValue: 1 << 6)
    public static let encipherOnly = KeyUsage(rawValue: 1 << 7)
    public static let decipherOnly = KeyUsage(rawValue: 1 << 8)

    /// The nine named bits; BIT STRING bit 0 is the most significant bit of the first octet.
    public init(extensionValue: [UInt8]) throws(DERError) {
        let (bytes, unusedBits) = try DERParser.parse(extensionValue).bitString()
        // ITU-T X.690 §11.2.2: a named bit list has no trailing zero bits.
        if let last = bytes.last, last == 0 || last & (1 << unusedBits) == 0 {
            throw .invalidValue(type: "key usage", reason: "trailing zero bits must be removed in DER")
        }
        guard bytes.count <= 2, bytes.count < 2 || bytes[1] & 0x7F == 0 else {
            throw .invalidValue(type: "key usage", reason: "bits beyond decipherOnly (8)")
        }
        var raw: UInt16 = 0
        for (index, byte) in bytes.enumerated() {
            for bit in 0..<8 where byte & (0x80 >> bit) != 0 {
                raw |= 1 << UInt16(index * 8 + bit)
            }
        }
        rawValue = raw
    }

    public var extensionValue: [UInt8] {
        let bitCount = 16 - rawValue.leadingZeroBitCount
        var bytes = [UInt8](repeating: 0, count: (bitCount + 7) / 8)
        for bit in 0..<bitCount where rawValue & (1 << UInt16(bit)) != 0 {
            bytes[bit / 8] |= 0x80 >> UInt8(bit % 8)
        }
        let unusedBits = bytes.isEmpty ? 0 : UInt8(bytes.count * 8 - bitCount)
        return DERWriter.encode(.bitString(bytes, unusedBits: unusedBits))
    }
}

// RFC 5280 §4.2.1.12 Extended Key Usage: a SEQUENCE of key purpose OIDs.
public enum ExtendedKeyUsage {
    public static func purposes(extensionValue: [UInt8]) throws(DERError) -> [ASN1ObjectIdentifier] {
        let members = try DERParser.parse(extensionValue).members(.sequence)
        guard !members.isEmpty else {
            throw .invalidValue(type: "extended key usage", reason: "at least one key purpose is required")
        }
        var purposes: [ASN1ObjectIdentifier] = []
        for member in members {
            purposes.append(try member.objectIdentifier())
        }
        return purposes
    }

    public static func extensionValue(_ purposes: [ASN1ObjectIdentifier]) -> [UInt8] {
        DERWriter.encode(.sequence(purposes.map { .objectIdentifier($0) }))
    }
}

// RFC 5280 §4.2.1.2 Subject Key Identifier (an OCTET STRING) and §4.2.1.1 Authority Key Identifier.
public enum KeyIdentifier {
    public static func subject(extensionValue: [UInt8]) throws(DERError) -> [UInt8] {
        try DERParser.parse(extensionValue).octetString()
    }

    public static func subjectExtensionValue(_ identifier: [UInt8]) -> [UInt8] {
        DERWriter.encode(.octetString(identifier))
    }

    /// The keyIdentifier [0] of an AuthorityKeyIdentifier; issuer name and serial may follow and are not used.
    public static func authority(extensionValue: [UInt8]) throws(DERError) -> [UInt8] {
        let members = try DERParser.parse(extensionValue).members(
            .sequence, count: 1...3, in: "authority key identifier")
        return try members[0].primitiveContents(.contextSpecific(0, constructed: false))
    }

    public static func authorityExtensionValue(_ identifier: [UInt8]) -> [UInt8] {
        DERWriter.encode(.sequence([.implicit(0, identifier)]))
    }
}
