import MatterCrypto

// Matter Core §6.4 Node Operational Credentials: a fabric's root (RCAC) or intermediate (ICAC)
// certificate authority, issuing certificates in the profiles of Matter Core §6.5.
public struct CertificateAuthority: Sendable {
    /// The authority's own certificate, RCAC or ICAC.
    public let certificate: MatterCertificate
    private let signingKey: P256.PrivateKey

    /// An authority over an existing CA certificate whose public key is `signingKey`'s.
    public init(certificate: MatterCertificate, signingKey: P256.PrivateKey) throws(CertificateError) {
        guard certificate.publicKey == signingKey.publicKey.x963Representation else {
            throw .invalidField("signingKey", reason: "does not match the certificate's public key")
        }
        guard certificate.basicConstraints?.isCertificateAuthority == true,
            certificate.keyUsage?.contains(.keyCertSign) == true,
            certificate.subjectKeyIdentifier != nil
        else {
            throw .invalidField(
                "certificate",
                reason: "not a CA certificate: needs basic constraints cA, keyCertSign and a subject key identifier")
        }
        self.certificate = certificate
        self.signingKey = signingKey
    }

    /// A self-signed root (RCAC, Matter Core §6.5.12.1) with subject rcac-id [+ fabric-id].
    public static func root(
        signingKey: P256.PrivateKey, rcacID: UInt64, fabricID: UInt64?, serialNumber: [UInt8],
        notBefore: UInt32, notAfter: UInt32
    ) throws(CertificateError) -> CertificateAuthority {
        let subject = DistinguishedName([.matterRCACID(rcacID)] + (fabricID.map { [.matterFabricID($0)] } ?? []))
        let publicKey = signingKey.publicKey.x963Representation
        let keyIdentifier = Self.keyIdentifier(of: publicKey)
        let unsigned = MatterCertificate(
            serialNumber: try Self.checkedSerialNumber(serialNumber), issuer: subject, notBefore: notBefore,
            notAfter: notAfter,
            subject: subject, publicKey: publicKey,
            extensions: Self.authorityExtensions(
                subjectKeyIdentifier: keyIdentifier, authorityKeyIdentifier: keyIdentifier),
            signature: [])
        return try CertificateAuthority(certificate: sign(unsigned, with: signingKey), signingKey: signingKey)
    }

    /// An intermediate (ICAC, Matter Core §6.5.12.2) with subject icac-id [+ fabric-id], signed by this authority.
    public func issueIntermediate(
        publicKey: [UInt8], icacID: UInt64, fabricID: UInt64?, serialNumber: [UInt8],
        notBefore: UInt32, notAfter: UInt32
    ) throws(CertificateError) -> MatterCertificate {
        let subject = DistinguishedName([.matterICACID(icacID)] + (fabricID.map { [.matterFabricID($0)] } ?? []))
        return try issue(
            subject: subject, publicKey: publicKey, serialNumber: serialNumber, notBefore: notBefore,
            notAfter: notAfter,
            extensions: Self.authorityExtensions(
                subjectKeyIdentifier: Self.keyIdentifier(of: publicKey),
                authorityKeyIdentifier: try issuerKeyIdentifier()))
    }

    /// A node operational certificate (NOC, Matter Core §6.5.12.3): subject node-id, fabric-id and CATs,
    /// digitalSignature, client and server authentication.
    public func issueOperational(
        publicKey: [UInt8], nodeID: UInt64, fabricID: UInt64, caseAuthenticatedTags: [UInt32] = [],
        serialNumber: [UInt8], notBefore: UInt32, notAfter: UInt32
    ) throws(CertificateError) -> MatterCertificate {
        // Matter Core §6.6.2.1.2: at most three CATs, tag versions are never 0.
        guard caseAuthenticatedTags.count <= 3, caseAuthenticatedTags.allSatisfy({ $0 & 0xFFFF != 0 }) else {
            throw .invalidField("caseAuthenticatedTags", reason: "at most 3 tags, each with a non-zero version")
        }
        let subject = DistinguishedName(
            [.matterNodeID(nodeID), .matterFabricID(fabricID)]
                + caseAuthenticatedTags.map { .matterCASEAuthenticatedTag($0) })
        return try issue(
            subject: subject, publicKey: publicKey, serialNumber: serialNumber, notBefore: notBefore,
            notAfter: notAfter,
            extensions: [
                .basicConstraints(BasicConstraints(isCertificateAuthority: false)),
                .keyUsage(.digitalSignature),
                .extendedKeyUsage([.clientAuth, .serverAuth]),
                .subjectKeyIdentifier(Self.keyIdentifier(of: publicKey)),
                .authorityKeyIdentifier(try issuerKeyIdentifier()),
            ])
    }

    /// A NOC for the key in a device's CSR, whose own signature must verify first (Matter Core §11.18.6.6).
    public func issueOperational(
        for request: CertificateSigningRequest, nodeID: UInt64, fabricID: UInt64, caseAuthenticatedTags: [UInt32] = [],
        serialNumber: [UInt8], notBefore: UInt32, notAfter: UInt32
    ) throws(CertificateError) -> MatterCertificate {
        try request.verifySignature()
        return try issueOperational(
            publicKey: request.publicKey, nodeID: nodeID, fabricID: fabricID,
            caseAuthenticatedTags: caseAuthenticatedTags,
            serialNumber: serialNumber, notBefore: notBefore, notAfter: notAfter)
    }

    /// Eight random octets forming a positive, minimally encoded INTEGER (RFC 5280 §4.1.2.2).
    public static func randomSerialNumber(using random: some RandomSource) -> [UInt8] {
        var serial = random.bytes(8)
        serial[0] = serial[0] & 0x7F | 0x01
        return serial
    }

    /// RFC 7093 §2 method 1: the leftmost 160 bits of SHA-256 over the subjectPublicKey bits.
    public static func keyIdentifier(of publicKey: [UInt8]) -> [UInt8] {
        Array(SHA256.hash(publicKey).prefix(CertificateLimits.keyIdentifierLength))
    }

    private func issue(
        subject: DistinguishedName, publicKey: [UInt8], serialNumber: [UInt8], notBefore: UInt32, notAfter: UInt32,
        extensions: [MatterCertificateExtension]
    ) throws(CertificateError) -> MatterCertificate {
        // The key must be a point on P-256: a NOC for a malformed key would be unusable.
        _ = try performingCrypto { () throws(CryptoError) in try P256.PublicKey(x963Representation: publicKey) }
        let unsigned = MatterCertificate(
            serialNumber: try Self.checkedSerialNumber(serialNumber), issuer: certificate.subject, notBefore: notBefore,
            notAfter: notAfter,
            subject: subject, publicKey: publicKey, extensions: extensions, signature: [])
        return try Self.sign(unsigned, with: signingKey)
    }

    private func issuerKeyIdentifier() throws(CertificateError) -> [UInt8] {
        guard let identifier = certificate.subjectKeyIdentifier else {
            throw .invalidField("certificate", reason: "the authority has no subject key identifier")
        }
        return identifier
    }

    private static func authorityExtensions(
        subjectKeyIdentifier: [UInt8], authorityKeyIdentifier: [UInt8]
    ) -> [MatterCertificateExtension] {
        [
            .basicConstraints(BasicConstraints(isCertificateAuthority: true)),
            .keyUsage([.keyCertSign, .cRLSign]),
            .subjectKeyIdentifier(subjectKeyIdentifier),
            .authorityKeyIdentifier(authorityKeyIdentifier),
        ]
    }

    private static func sign(
        _ unsigned: MatterCertificate, with key: P256.PrivateKey
    ) throws(CertificateError) -> MatterCertificate {
        try unsigned.signed(with: key)
    }

    private static func checkedSerialNumber(_ serialNumber: [UInt8]) throws(CertificateError) -> [UInt8] {
        guard (1...CertificateLimits.maximumSerialNumberLength).contains(serialNumber.count),
            let bytes = try? DERNode.integer(twosComplement: serialNumber).integerBytes(), bytes[0] & 0x80 == 0
        else {
            throw .invalidField(
                "serialNumber",
                reason:
                    "must be a positive, minimally encoded INTEGER of 1 to \(CertificateLimits.maximumSerialNumberLength) octets"
            )
        }
        return serialNumber
    }
}
