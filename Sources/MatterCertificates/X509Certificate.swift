import MatterCrypto

// RFC 5280 §4.1 Certificate: the profile Matter uses (v3, ecdsa-with-SHA256, P-256 keys).
public struct X509Certificate: Hashable, Sendable {
    /// The whole certificate as parsed.
    public let derEncoded: [UInt8]
    /// The exact tbsCertificate bytes the issuer signed.
    public let tbsCertificate: [UInt8]
    /// The serial number's INTEGER content octets (RFC 5280 §4.1.2.2).
    public let serialNumber: [UInt8]
    public let issuer: DistinguishedName
    public let notBefore: CertificateTime
    public let notAfter: CertificateTime
    public let subject: DistinguishedName
    /// The subject's P-256 public key, uncompressed (0x04 ‖ X ‖ Y).
    public let publicKey: [UInt8]
    /// The extensions in their encoded order.
    public let extensions: [X509Extension]
    /// The ECDSA signature in its DER form (RFC 3279 §2.2.3 Ecdsa-Sig-Value).
    public let signature: [UInt8]

    public init(derEncoded bytes: [UInt8]) throws(CertificateError) {
        let root = try decodingDER("certificate") { () throws(DERError) in try DERParser.parse(bytes) }
        let parts = try decodingDER("certificate") { () throws(DERError) in
            try root.members(.sequence, count: 3...3, in: "certificate")
        }
        let tbs = try decodingDER("tbsCertificate") { () throws(DERError) in
            try parts[0].members(.sequence, count: 7...8, in: "tbsCertificate")
        }
        derEncoded = bytes
        tbsCertificate = DERWriter.encode(parts[0])

        // RFC 5280 §4.1.2.1: version [0] EXPLICIT, v3 (2) since extensions are present.
        let version = try decodingDER("version") { () throws(DERError) in
            try tbs[0].members(.contextSpecific(0, constructed: true), count: 1...1, in: "version")[0].unsignedInteger()
        }
        guard version == 2 else {
            throw .unsupported("certificate version \(version + 1); Matter uses version 3")
        }
        serialNumber = try decodingDER("serialNumber") { () throws(DERError) in try tbs[1].integerBytes() }
        guard serialNumber.count <= CertificateLimits.maximumSerialNumberLength else {
            throw .invalidField(
                "serialNumber",
                reason: "\(serialNumber.count) octets, at most \(CertificateLimits.maximumSerialNumberLength) allowed")
        }
        let innerAlgorithm = try Self.signatureAlgorithm(tbs[2], field: "signature")
        issuer = try decodingDER("issuer") { () throws(DERError) in try DistinguishedName(derNode: tbs[3]) }
        let validity = try decodingDER("validity") { () throws(DERError) in
            try tbs[4].members(.sequence, count: 2...2, in: "validity")
        }
        notBefore = try decodingDER("validity.notBefore") { () throws(DERError) in
            try CertificateTime(derNode: validity[0])
        }
        notAfter = try decodingDER("validity.notAfter") { () throws(DERError) in
            try CertificateTime(derNode: validity[1])
        }
        subject = try decodingDER("subject") { () throws(DERError) in try DistinguishedName(derNode: tbs[5]) }
        publicKey = try Self.subjectPublicKey(tbs[6])
        extensions = try tbs.count == 8 ? Self.extensions(tbs[7]) : []

        let outerAlgorithm = try Self.signatureAlgorithm(parts[1], field: "signatureAlgorithm")
        guard innerAlgorithm == outerAlgorithm else {
            throw .invalidField(
                "signatureAlgorithm", reason: "differs from tbsCertificate.signature (RFC 5280 §4.1.1.2)")
        }
        signature = try decodingDER("signatureValue") { () throws(DERError) in try parts[2].octetAlignedBitString() }
    }

    /// The extension with this identifier, if present.
    public func `extension`(_ identifier: ASN1ObjectIdentifier) -> X509Extension? {
        extensions.first { $0.identifier == identifier }
    }

    public var basicConstraints: BasicConstraints? {
        get throws(CertificateError) {
            guard let value = `extension`(.basicConstraints)?.value else { return nil }
            return try decodingDER("extensions.basicConstraints") { () throws(DERError) in
                try BasicConstraints(extensionValue: value)
            }
        }
    }

    public var keyUsage: KeyUsage? {
        get throws(CertificateError) {
            guard let value = `extension`(.keyUsage)?.value else { return nil }
            return try decodingDER("extensions.keyUsage") { () throws(DERError) in try KeyUsage(extensionValue: value) }
        }
    }

    public var extendedKeyUsage: [ASN1ObjectIdentifier]? {
        get throws(CertificateError) {
            guard let value = `extension`(.extendedKeyUsage)?.value else { return nil }
            return try decodingDER("extensions.extendedKeyUsage") { () throws(DERError) in
                try ExtendedKeyUsage.purposes(extensionValue: value)
            }
        }
    }

    public var subjectKeyIdentifier: [UInt8]? {
        get throws(CertificateError) {
            guard let value = `extension`(.subjectKeyIdentifier)?.value else { return nil }
            return try decodingDER("extensions.subjectKeyIdentifier") { () throws(DERError) in
                try KeyIdentifier.subject(extensionValue: value)
            }
        }
    }

    public var authorityKeyIdentifier: [UInt8]? {
        get throws(CertificateError) {
            guard let value = `extension`(.authorityKeyIdentifier)?.value else { return nil }
            return try decodingDER("extensions.authorityKeyIdentifier") { () throws(DERError) in
                try KeyIdentifier.authority(extensionValue: value)
            }
        }
    }

    /// Whether `time` lies within notBefore...notAfter (RFC 5280 §4.1.2.5, both ends inclusive).
    public func isValid(at time: CertificateTime) -> Bool {
        notBefore <= time && time <= notAfter
    }

    /// Throws `signatureInvalid` unless the signature over tbsCertificate verifies with the issuer's key.
    public func verifySignature(issuerPublicKey: [UInt8]) throws(CertificateError) {
        let key = try performingCrypto { () throws(CryptoError) in
            try P256.PublicKey(x963Representation: issuerPublicKey)
        }
        let parsed = try performingCrypto { () throws(CryptoError) in
            try P256.ECDSASignature(derRepresentation: signature)
        }
        guard key.isValidSignature(parsed, for: tbsCertificate) else {
            throw .signatureInvalid
        }
    }

    // RFC 5758 §3.2: ecdsa-with-SHA256 with absent parameters.
    private static func signatureAlgorithm(
        _ node: DERNode, field: String
    ) throws(CertificateError) -> ASN1ObjectIdentifier {
        let algorithm = try decodingDER(field) { () throws(DERError) in
            try node.members(.sequence, count: 1...1, in: "AlgorithmIdentifier")[0].objectIdentifier()
        }
        guard algorithm == .ecdsaWithSHA256 else {
            throw .unsupported("\(field) algorithm \(algorithm); Matter uses ecdsa-with-SHA256")
        }
        return algorithm
    }

    // RFC 5480 §2: id-ecPublicKey on namedCurve prime256v1, the key an uncompressed point.
    static func subjectPublicKey(_ node: DERNode) throws(CertificateError) -> [UInt8] {
        let (algorithm, curve, key) = try decodingDER("subjectPublicKeyInfo") { () throws(DERError) in
            let info = try node.members(.sequence, count: 2...2, in: "subjectPublicKeyInfo")
            let identifier = try info[0].members(.sequence, count: 2...2, in: "AlgorithmIdentifier")
            return (
                try identifier[0].objectIdentifier(), try identifier[1].objectIdentifier(),
                try info[1].octetAlignedBitString()
            )
        }
        guard algorithm == .ecPublicKey, curve == .prime256v1 else {
            throw .unsupported(
                "public key algorithm \(algorithm) on curve \(curve); Matter uses id-ecPublicKey on prime256v1")
        }
        guard key.count == CertificateLimits.publicKeyLength, key.first == 0x04 else {
            throw .invalidField(
                "subjectPublicKey", reason: "not a \(CertificateLimits.publicKeyLength)-byte uncompressed P-256 point")
        }
        return key
    }

    static func subjectPublicKeyInfo(_ key: [UInt8]) -> DERNode {
        .sequence([.sequence([.objectIdentifier(.ecPublicKey), .objectIdentifier(.prime256v1)]), .bitString(key)])
    }

    // RFC 5280 §4.1.2.9: extensions [3] EXPLICIT, at least one, each identifier at most once.
    private static func extensions(_ node: DERNode) throws(CertificateError) -> [X509Extension] {
        let extensions = try decodingDER("extensions") { () throws(DERError) in
            let list = try node.members(.contextSpecific(3, constructed: true), count: 1...1, in: "extensions")[0]
                .members(.sequence)
            var extensions: [X509Extension] = []
            for member in list {
                extensions.append(try X509Extension(derNode: member))
            }
            return extensions
        }
        guard !extensions.isEmpty else {
            throw .invalidField("extensions", reason: "present but empty")
        }
        for (index, candidate) in extensions.enumerated()
        where extensions[..<index].contains(where: { $0.identifier == candidate.identifier }) {
            throw .invalidField("extensions", reason: "\(candidate.identifier) appears more than once")
        }
        return extensions
    }
}
