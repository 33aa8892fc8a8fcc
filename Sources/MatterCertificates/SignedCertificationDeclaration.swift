import MatterCrypto

// Matter Core §6.3.2 Certification Declaration envelope: an RFC 5652 ContentInfo of SignedData with one
// signer named by subject key identifier, no certificates, and no signed attributes, so the ECDSA signature
// covers the eContent octets (the declaration's TLV) directly.
public struct SignedCertificationDeclaration: Hashable, Sendable {
    /// The signer's subjectKeyIdentifier sid [0] (RFC 5652 §5.3).
    public let signerKeyIdentifier: [UInt8]
    /// The eContent octets: the TLV of the declaration, exactly as signed.
    public let content: [UInt8]
    public let declaration: CertificationDeclaration
    /// The ECDSA signature in its DER form (RFC 5753 §2.1.1 / RFC 3279 §2.2.3).
    public let signature: [UInt8]

    public init(derEncoded bytes: [UInt8]) throws(CertificateError) {
        // RFC 5652 §3 ContentInfo.
        let contentInfo = try decodingDER("ContentInfo") { () throws(DERError) in
            try DERParser.parse(bytes).members(.sequence, count: 2...2, in: "ContentInfo")
        }
        let contentType = try decodingDER("ContentInfo.contentType") { () throws(DERError) in
            try contentInfo[0].objectIdentifier()
        }
        guard contentType == .cmsSignedData else {
            throw .unsupported("CMS content type \(contentType); a certification declaration is id-signedData")
        }
        // RFC 5652 §5.1 SignedData: version, digestAlgorithms, encapContentInfo, signerInfos (no certificates or CRLs).
        let signedData = try decodingDER("SignedData") { () throws(DERError) in
            try contentInfo[1].members(.contextSpecific(0, constructed: true), count: 1...1, in: "ContentInfo.content")[
                0
            ]
            .members(.sequence, count: 4...4, in: "SignedData (certificates and CRLs are not allowed)")
        }
        try Self.requireVersion3(signedData[0], field: "SignedData.version")
        let digestAlgorithms = try decodingDER("SignedData.digestAlgorithms") { () throws(DERError) in
            try signedData[1].members(.set, count: 1...1, in: "digestAlgorithms")
        }
        try Self.requireSHA256(digestAlgorithms[0], field: "SignedData.digestAlgorithms")
        // RFC 5652 §5.2 EncapsulatedContentInfo with id-data and the content present.
        let encapsulated = try decodingDER("encapContentInfo") { () throws(DERError) in
            try signedData[2].members(.sequence, count: 2...2, in: "encapContentInfo")
        }
        let encapsulatedType = try decodingDER("encapContentInfo.eContentType") { () throws(DERError) in
            try encapsulated[0].objectIdentifier()
        }
        guard encapsulatedType == .cmsData else {
            throw .unsupported("eContentType \(encapsulatedType); a certification declaration is id-data")
        }
        content = try decodingDER("encapContentInfo.eContent") { () throws(DERError) in
            try encapsulated[1].members(.contextSpecific(0, constructed: true), count: 1...1, in: "eContent")[0]
                .octetString()
        }
        // RFC 5652 §5.3 SignerInfo: version 3, sid [0], digestAlgorithm, signatureAlgorithm, signature.
        let signerInfo = try decodingDER("signerInfos") { () throws(DERError) in
            try signedData[3].members(.set, count: 1...1, in: "signerInfos")[0]
                .members(.sequence, count: 5...5, in: "SignerInfo (signed and unsigned attributes are not allowed)")
        }
        try Self.requireVersion3(signerInfo[0], field: "SignerInfo.version")
        signerKeyIdentifier = try decodingDER("SignerInfo.sid") { () throws(DERError) in
            try signerInfo[1].primitiveContents(.contextSpecific(0, constructed: false))
        }
        try Self.requireSHA256(signerInfo[2], field: "SignerInfo.digestAlgorithm")
        let signatureAlgorithm = try decodingDER("SignerInfo.signatureAlgorithm") { () throws(DERError) in
            try signerInfo[3].members(.sequence, count: 1...1, in: "AlgorithmIdentifier")[0].objectIdentifier()
        }
        guard signatureAlgorithm == .ecdsaWithSHA256 else {
            throw .unsupported("signature algorithm \(signatureAlgorithm); Matter uses ecdsa-with-SHA256")
        }
        signature = try decodingDER("SignerInfo.signature") { () throws(DERError) in try signerInfo[4].octetString() }
        declaration = try CertificationDeclaration(tlv: content)
    }

    /// Throws `signatureInvalid` unless the signature over the content verifies with `publicKey`.
    public func verifySignature(publicKey: [UInt8]) throws(CertificateError) {
        let key = try performingCrypto { () throws(CryptoError) in try P256.PublicKey(x963Representation: publicKey) }
        let parsed = try performingCrypto { () throws(CryptoError) in
            try P256.ECDSASignature(derRepresentation: signature)
        }
        guard key.isValidSignature(parsed, for: content) else {
            throw .signatureInvalid
        }
    }

    private static func requireVersion3(_ node: DERNode, field: String) throws(CertificateError) {
        let version = try decodingDER(field) { () throws(DERError) in try node.unsignedInteger() }
        guard version == 3 else {
            throw .unsupported("\(field) \(version); a signer named by key identifier needs version 3 (RFC 5652 §5.1)")
        }
    }

    // RFC 5754 §2: id-sha256 with absent (or, from older encoders, NULL) parameters.
    private static func requireSHA256(_ node: DERNode, field: String) throws(CertificateError) {
        let algorithm = try decodingDER(field) { () throws(DERError) in
            let members = try node.members(.sequence, count: 1...2, in: "AlgorithmIdentifier")
            if members.count == 2 { try members[1].null() }
            return try members[0].objectIdentifier()
        }
        guard algorithm == .sha256 else {
            throw .unsupported("\(field) \(algorithm); Matter uses SHA-256")
        }
    }
}
