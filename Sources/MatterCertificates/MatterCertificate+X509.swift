import MatterCrypto

// Matter Core §6.5.x and §6.6: the exact conversion between Matter TLV and X.509 DER certificates.
//
// The X.509 form is rebuilt field by field as the issuer encoded it: version 3, ecdsa-with-SHA256
// without parameters, one attribute per RDN, UTCTime through 2049, extensions in their order with
// basic constraints, key usage and extended key usage critical, key identifiers not critical.
extension MatterCertificate {
    /// Converts an X.509 certificate; throws unless its Matter TLV form converts back to exactly the same bytes.
    public init(x509DER bytes: [UInt8]) throws(CertificateError) {
        try self.init(x509: X509Certificate(derEncoded: bytes))
        let rebuilt = try MatterCertificate(tlv: tlvEncoded()).x509DER()
        guard rebuilt == bytes else {
            let common = min(rebuilt.count, bytes.count)
            let offset = (0..<common).first { rebuilt[$0] != bytes[$0] } ?? common
            throw .notMatterEncodable(
                "the X.509 form rebuilt from Matter TLV differs from the original at byte \(offset)")
        }
    }

    private init(x509 certificate: X509Certificate) throws(CertificateError) {
        let raw = try performingCrypto { () throws(CryptoError) in
            try P256.ECDSASignature(derRepresentation: certificate.signature).rawRepresentation
        }
        self.init(
            serialNumber: certificate.serialNumber,
            issuer: certificate.issuer,
            notBefore: try Self.matterTime(certificate.notBefore, field: "notBefore", allowingNoExpiration: false),
            notAfter: try Self.matterTime(certificate.notAfter, field: "notAfter", allowingNoExpiration: true),
            subject: certificate.subject,
            publicKey: certificate.publicKey,
            extensions: try certificate.extensions.map(Self.matterExtension),
            signature: raw)
    }

    /// The X.509 DER form whose tbsCertificate the issuer signed.
    public func x509DER() throws(CertificateError) -> [UInt8] {
        let signatureDER = try performingCrypto { () throws(CryptoError) in
            try P256.ECDSASignature(rawRepresentation: signature).derRepresentation
        }
        return DERWriter.encode(
            .sequence([try tbsCertificateNode(), Self.signatureAlgorithmNode, .bitString(signatureDER)]))
    }

    // RFC 5280 §4.1.2 TBSCertificate, in the form Matter Core §6.6 prescribes.
    func tbsCertificateNode() throws(CertificateError) -> DERNode {
        var extensionNodes: [DERNode] = []
        for certificateExtension in extensions {
            extensionNodes.append(try Self.x509Extension(certificateExtension))
        }
        return .sequence([
            .explicit(0, .integer(2)),
            .integer(twosComplement: serialNumber),
            Self.signatureAlgorithmNode,
            issuer.derNode,
            .sequence([
                Self.certificateTime(notBefore, noExpirationWhenZero: false).derNode,
                Self.certificateTime(notAfter, noExpirationWhenZero: true).derNode,
            ]),
            subject.derNode,
            X509Certificate.subjectPublicKeyInfo(publicKey),
            .explicit(3, .sequence(extensionNodes)),
        ])
    }

    private static let signatureAlgorithmNode = DERNode.sequence([.objectIdentifier(.ecdsaWithSHA256)])

    private static func certificateTime(_ seconds: UInt32, noExpirationWhenZero: Bool) -> CertificateTime {
        if noExpirationWhenZero && seconds == 0 {
            return .noWellDefinedExpiration
        }
        // A UInt32 of seconds after 2000 ends in 2136, always a valid time.
        return (try? CertificateTime(secondsSinceUnixEpoch: matterEpochInUnixSeconds + Int64(seconds)))
            ?? .noWellDefinedExpiration
    }

    private static func matterTime(
        _ time: CertificateTime, field: String, allowingNoExpiration: Bool
    ) throws(CertificateError) -> UInt32 {
        if allowingNoExpiration && time == .noWellDefinedExpiration {
            return 0
        }
        guard let seconds = UInt32(exactly: time.secondsSinceUnixEpoch - matterEpochInUnixSeconds) else {
            throw .notMatterEncodable("\(field) \(time) is outside the 32-bit Matter epoch range (2000 to 2136)")
        }
        return seconds
    }

    private static func x509Extension(
        _ certificateExtension: MatterCertificateExtension
    ) throws(CertificateError) -> DERNode {
        switch certificateExtension {
        case .basicConstraints(let constraints):
            X509Extension(identifier: .basicConstraints, isCritical: true, value: constraints.extensionValue).derNode
        case .keyUsage(let usage):
            X509Extension(identifier: .keyUsage, isCritical: true, value: usage.extensionValue).derNode
        case .extendedKeyUsage(let purposes):
            X509Extension(
                identifier: .extendedKeyUsage, isCritical: true,
                value: ExtendedKeyUsage.extensionValue(purposes.map(\.objectIdentifier))
            ).derNode
        case .subjectKeyIdentifier(let identifier):
            X509Extension(
                identifier: .subjectKeyIdentifier, isCritical: false,
                value: KeyIdentifier.subjectExtensionValue(identifier)
            ).derNode
        case .authorityKeyIdentifier(let identifier):
            X509Extension(
                identifier: .authorityKeyIdentifier, isCritical: false,
                value: KeyIdentifier.authorityExtensionValue(identifier)
            ).derNode
        case .futureExtension(let encoded):
            try decodingDER("future-extension") { () throws(DERError) in
                try X509Extension(derNode: DERParser.parse(encoded)).derNode
            }
        }
    }

    private static func matterExtension(
        _ certificateExtension: X509Extension
    ) throws(CertificateError) -> MatterCertificateExtension {
        let known: [ASN1ObjectIdentifier: Bool] = [
            .basicConstraints: true, .keyUsage: true, .extendedKeyUsage: true,
            .subjectKeyIdentifier: false, .authorityKeyIdentifier: false,
        ]
        guard let critical = known[certificateExtension.identifier] else {
            return .futureExtension(DERWriter.encode(certificateExtension.derNode))
        }
        let name = certificateExtension.identifier.description
        guard certificateExtension.isCritical == critical else {
            throw .notMatterEncodable("extension \(name) must\(critical ? "" : " not") be critical")
        }
        let value = certificateExtension.value
        return try decodingDER("extension \(name)") { () throws(DERError) -> MatterCertificateExtension in
            switch certificateExtension.identifier {
            case .basicConstraints:
                return .basicConstraints(try BasicConstraints(extensionValue: value))
            case .keyUsage:
                return .keyUsage(try KeyUsage(extensionValue: value))
            case .extendedKeyUsage:
                var purposes: [KeyPurpose] = []
                for identifier in try ExtendedKeyUsage.purposes(extensionValue: value) {
                    guard let purpose = KeyPurpose(objectIdentifier: identifier) else {
                        throw .invalidValue(
                            type: "extended key usage", reason: "key purpose \(identifier) has no Matter ID")
                    }
                    purposes.append(purpose)
                }
                return .extendedKeyUsage(purposes)
            case .subjectKeyIdentifier:
                return .subjectKeyIdentifier(try KeyIdentifier.subject(extensionValue: value))
            default:
                return .authorityKeyIdentifier(try KeyIdentifier.authority(extensionValue: value))
            }
        }
    }
}
