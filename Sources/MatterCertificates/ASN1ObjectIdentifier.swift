// ITU-T X.690 §8.19 Encoding of an object identifier value.
public struct ASN1ObjectIdentifier: Hashable, Sendable, CustomStringConvertible {
    public let arcs: [UInt64]

    /// At least two arcs, the first 0, 1 or 2, the second below 40 unless the first is 2 (X.660 §7.6).
    public init(arcs: [UInt64]) throws(DERError) {
        guard arcs.count >= 2, arcs[0] <= 2, arcs[0] == 2 || arcs[1] < 40,
            arcs[1] <= UInt64.max - 80
        else {
            throw .invalidValue(type: "OBJECT IDENTIFIER", reason: "arcs \(arcs) are not a valid object identifier")
        }
        self.arcs = arcs
    }

    /// For the constants below, whose arcs are known to be valid.
    private init(validArcs: UInt64...) {
        arcs = validArcs
    }

    /// Decodes the contents octets of an OBJECT IDENTIFIER.
    public init(derContents bytes: [UInt8]) throws(DERError) {
        guard !bytes.isEmpty else {
            throw .invalidValue(type: "OBJECT IDENTIFIER", reason: "no content octets")
        }
        var subidentifiers: [UInt64] = []
        var value: UInt64 = 0
        var octets = 0
        for byte in bytes {
            // §8.19.2: no leading 0x80 octet in a subidentifier.
            if octets == 0 && byte == 0x80 {
                throw .invalidValue(type: "OBJECT IDENTIFIER", reason: "subidentifier with a leading zero group")
            }
            octets += 1
            guard octets <= CertificateLimits.maximumObjectIdentifierArcOctets else {
                throw .invalidValue(
                    type: "OBJECT IDENTIFIER",
                    reason: "subidentifier longer than \(CertificateLimits.maximumObjectIdentifierArcOctets) octets")
            }
            value = value << 7 | UInt64(byte & 0x7F)
            if byte & 0x80 == 0 {
                subidentifiers.append(value)
                value = 0
                octets = 0
            }
        }
        guard octets == 0, let first = subidentifiers.first else {
            throw .invalidValue(type: "OBJECT IDENTIFIER", reason: "last subidentifier is unterminated")
        }
        // §8.19.4: the first subidentifier is 40·X + Y.
        let head: [UInt64] = first < 80 ? [first / 40, first % 40] : [2, first - 80]
        arcs = head + subidentifiers.dropFirst()
    }

    public var derContents: [UInt8] {
        var output: [UInt8] = []
        let subidentifiers = [arcs[0] * 40 + arcs[1]] + arcs.dropFirst(2)
        for subidentifier in subidentifiers {
            var groups: [UInt8] = [UInt8(subidentifier & 0x7F)]
            var rest = subidentifier >> 7
            while rest > 0 {
                groups.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            output.append(contentsOf: groups)
        }
        return output
    }

    public var description: String {
        arcs.map(String.init).joined(separator: ".")
    }
}

// The object identifiers of the certificates Matter uses.
extension ASN1ObjectIdentifier {
    // RFC 5758 §3.2 and RFC 5480 §2.1.1: ECDSA with SHA-256, EC public keys, the P-256 curve.
    public static let ecdsaWithSHA256 = ASN1ObjectIdentifier(validArcs: 1, 2, 840, 10045, 4, 3, 2)
    public static let ecPublicKey = ASN1ObjectIdentifier(validArcs: 1, 2, 840, 10045, 2, 1)
    public static let prime256v1 = ASN1ObjectIdentifier(validArcs: 1, 2, 840, 10045, 3, 1, 7)

    // RFC 5280 §4.1.2.4 / X.520 attribute types.
    public static let commonName = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 3)
    public static let surname = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 4)
    public static let serialNumber = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 5)
    public static let countryName = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 6)
    public static let localityName = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 7)
    public static let stateOrProvinceName = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 8)
    public static let organizationName = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 10)
    public static let organizationalUnitName = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 11)
    public static let title = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 12)
    public static let name = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 41)
    public static let givenName = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 42)
    public static let initials = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 43)
    public static let generationQualifier = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 44)
    public static let dnQualifier = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 46)
    public static let pseudonym = ASN1ObjectIdentifier(validArcs: 2, 5, 4, 65)
    public static let domainComponent = ASN1ObjectIdentifier(validArcs: 0, 9, 2342, 19200300, 100, 1, 25)

    // Matter Core §6.5.6.1: Matter DN attribute types under 1.3.6.1.4.1.37244.1.
    public static let matterNodeID = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 4, 1, 37244, 1, 1)
    public static let matterFirmwareSigningID = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 4, 1, 37244, 1, 2)
    public static let matterICACID = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 4, 1, 37244, 1, 3)
    public static let matterRCACID = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 4, 1, 37244, 1, 4)
    public static let matterFabricID = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 4, 1, 37244, 1, 5)
    public static let matterCASEAuthenticatedTag = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 4, 1, 37244, 1, 6)
    // Matter Core §6.2.2.2: vendor and product ID in attestation certificates.
    public static let matterVendorID = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 4, 1, 37244, 2, 1)
    public static let matterProductID = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 4, 1, 37244, 2, 2)

    // RFC 5280 §4.2.1 certificate extensions.
    public static let basicConstraints = ASN1ObjectIdentifier(validArcs: 2, 5, 29, 19)
    public static let keyUsage = ASN1ObjectIdentifier(validArcs: 2, 5, 29, 15)
    public static let extendedKeyUsage = ASN1ObjectIdentifier(validArcs: 2, 5, 29, 37)
    public static let subjectKeyIdentifier = ASN1ObjectIdentifier(validArcs: 2, 5, 29, 14)
    public static let authorityKeyIdentifier = ASN1ObjectIdentifier(validArcs: 2, 5, 29, 35)

    // RFC 5280 §4.2.1.12 key purposes.
    public static let serverAuth = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 5, 5, 7, 3, 1)
    public static let clientAuth = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 5, 5, 7, 3, 2)
    public static let codeSigning = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 5, 5, 7, 3, 3)
    public static let emailProtection = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 5, 5, 7, 3, 4)
    public static let timeStamping = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 5, 5, 7, 3, 8)
    public static let ocspSigning = ASN1ObjectIdentifier(validArcs: 1, 3, 6, 1, 5, 5, 7, 3, 9)

    // RFC 5652 §5.1 id-signedData and §4 id-data, RFC 5754 §2.2 id-sha256: the CMS envelope of a
    // certification declaration (Matter Core §6.3.2).
    public static let cmsSignedData = ASN1ObjectIdentifier(validArcs: 1, 2, 840, 113549, 1, 7, 2)
    public static let cmsData = ASN1ObjectIdentifier(validArcs: 1, 2, 840, 113549, 1, 7, 1)
    public static let sha256 = ASN1ObjectIdentifier(validArcs: 2, 16, 840, 1, 101, 3, 4, 2, 1)
}
