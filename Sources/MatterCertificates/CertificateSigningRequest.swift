import MatterCrypto

// RFC 2986 §4 CertificationRequest (PKCS #10), as a device sends it in its NOCSR (Matter Core §11.18.5.6).
public struct CertificateSigningRequest: Hashable, Sendable {
    public let derEncoded: [UInt8]
    /// The exact certificationRequestInfo bytes the requester signed.
    public let certificationRequestInfo: [UInt8]
    public let subject: DistinguishedName
    /// The requested P-256 public key, uncompressed (0x04 ‖ X ‖ Y).
    public let publicKey: [UInt8]
    /// The attributes [0], kept as parsed; Matter does not use them.
    public let attributes: [DERNode]
    /// The ECDSA signature in its DER form (RFC 3279 §2.2.3).
    public let signature: [UInt8]

    public init(derEncoded bytes: [UInt8]) throws(CertificateError) {
        let parts = try decodingDER("certificationRequest") { () throws(DERError) in
            try DERParser.parse(bytes).members(.sequence, count: 3...3, in: "certificationRequest")
        }
        let info = try decodingDER("certificationRequestInfo") { () throws(DERError) in
            try parts[0].members(.sequence, count: 4...4, in: "certificationRequestInfo")
        }
        let version = try decodingDER("version") { () throws(DERError) in try info[0].unsignedInteger() }
        guard version == 0 else {
            throw .unsupported("certification request version \(version + 1); RFC 2986 defines version 1 (0)")
        }
        derEncoded = bytes
        certificationRequestInfo = DERWriter.encode(parts[0])
        subject = try decodingDER("subject") { () throws(DERError) in try DistinguishedName(derNode: info[1]) }
        publicKey = try X509Certificate.subjectPublicKey(info[2])
        attributes = try decodingDER("attributes") { () throws(DERError) in
            try info[3].members(.contextSpecific(0, constructed: true))
        }
        let algorithm = try decodingDER("signatureAlgorithm") { () throws(DERError) in
            try parts[1].members(.sequence, count: 1...1, in: "AlgorithmIdentifier")[0].objectIdentifier()
        }
        guard algorithm == .ecdsaWithSHA256 else {
            throw .unsupported("signature algorithm \(algorithm); Matter uses ecdsa-with-SHA256")
        }
        signature = try decodingDER("signature") { () throws(DERError) in try parts[2].octetAlignedBitString() }
    }

    /// Builds and signs a request for `signingKey`'s public key (RFC 2986 §3), with no attributes.
    public init(subject: DistinguishedName, signingKey: P256.PrivateKey) throws(CertificateError) {
        let info = DERNode.sequence([
            .integer(0),
            subject.derNode,
            X509Certificate.subjectPublicKeyInfo(signingKey.publicKey.x963Representation),
            DERNode(tag: .contextSpecific(0, constructed: true), members: []),
        ])
        let signature = try performingCrypto { () throws(CryptoError) in
            try signingKey.signature(for: DERWriter.encode(info)).derRepresentation
        }
        try self.init(
            derEncoded: DERWriter.encode(
                .sequence([info, .sequence([.objectIdentifier(.ecdsaWithSHA256)]), .bitString(signature)])))
    }

    /// Throws `signatureInvalid` unless the request is signed by the key it asks a certificate for.
    public func verifySignature() throws(CertificateError) {
        let key = try performingCrypto { () throws(CryptoError) in try P256.PublicKey(x963Representation: publicKey) }
        let parsed = try performingCrypto { () throws(CryptoError) in
            try P256.ECDSASignature(derRepresentation: signature)
        }
        guard key.isValidSignature(parsed, for: certificationRequestInfo) else {
            throw .signatureInvalid
        }
    }
}
