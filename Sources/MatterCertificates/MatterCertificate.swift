import MatterCrypto

// Matter Core §6.5.2 Matter Certificate: the operational certificate fields, as carried in Matter TLV.
public struct MatterCertificate: Hashable, Sendable {
    /// The serial number's INTEGER content octets (1 to 20, Matter Core §6.5.3).
    public var serialNumber: [UInt8]
    public var issuer: DistinguishedName
    /// Seconds since the Matter epoch, 2000-01-01T00:00:00Z (Matter Core §3.5.2).
    public var notBefore: UInt32
    /// Seconds since the Matter epoch; 0 means no well-defined expiration (Matter Core §6.5.6.2).
    public var notAfter: UInt32
    public var subject: DistinguishedName
    /// The uncompressed P-256 public key 0x04 ‖ X ‖ Y.
    public var publicKey: [UInt8]
    /// The extensions in their encoded order, which the X.509 form keeps.
    public var extensions: [MatterCertificateExtension]
    /// The raw ECDSA signature r ‖ s over the X.509 tbsCertificate.
    public var signature: [UInt8]

    public init(
        serialNumber: [UInt8], issuer: DistinguishedName, notBefore: UInt32, notAfter: UInt32,
        subject: DistinguishedName, publicKey: [UInt8], extensions: [MatterCertificateExtension], signature: [UInt8]
    ) {
        self.serialNumber = serialNumber
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subject = subject
        self.publicKey = publicKey
        self.extensions = extensions
        self.signature = signature
    }

    public var basicConstraints: BasicConstraints? {
        extensions.lazy.compactMap { if case .basicConstraints(let value) = $0 { value } else { nil } }.first
    }

    public var keyUsage: KeyUsage? {
        extensions.lazy.compactMap { if case .keyUsage(let value) = $0 { value } else { nil } }.first
    }

    public var extendedKeyUsage: [KeyPurpose]? {
        extensions.lazy.compactMap { if case .extendedKeyUsage(let value) = $0 { value } else { nil } }.first
    }

    public var subjectKeyIdentifier: [UInt8]? {
        extensions.lazy.compactMap { if case .subjectKeyIdentifier(let value) = $0 { value } else { nil } }.first
    }

    public var authorityKeyIdentifier: [UInt8]? {
        extensions.lazy.compactMap { if case .authorityKeyIdentifier(let value) = $0 { value } else { nil } }.first
    }

    /// Throws `signatureInvalid` unless the signature over the rebuilt X.509 tbsCertificate verifies.
    public func verifySignature(issuerPublicKey: [UInt8]) throws(CertificateError) {
        let key = try performingCrypto { () throws(CryptoError) in
            try P256.PublicKey(x963Representation: issuerPublicKey)
        }
        let parsed = try performingCrypto { () throws(CryptoError) in
            try P256.ECDSASignature(rawRepresentation: signature)
        }
        guard key.isValidSignature(parsed, for: DERWriter.encode(try tbsCertificateNode())) else {
            throw .signatureInvalid
        }
    }
}

// Matter Core §6.5.11 Extensions.
public enum MatterCertificateExtension: Hashable, Sendable {
    case basicConstraints(BasicConstraints)
    case keyUsage(KeyUsage)
    case extendedKeyUsage([KeyPurpose])
    case subjectKeyIdentifier([UInt8])
    case authorityKeyIdentifier([UInt8])
    /// Any other X.509 extension, kept as the DER of its whole Extension SEQUENCE (Matter Core §6.5.11.6).
    case futureExtension([UInt8])
}

// Matter Core §6.5.11.3 key purpose IDs and the RFC 5280 §4.2.1.12 OIDs they stand for.
public enum KeyPurpose: UInt8, Hashable, Sendable, CaseIterable {
    case serverAuth = 1, clientAuth = 2, codeSigning = 3, emailProtection = 4, timeStamping = 5, ocspSigning = 6

    public var objectIdentifier: ASN1ObjectIdentifier {
        switch self {
        case .serverAuth: .serverAuth
        case .clientAuth: .clientAuth
        case .codeSigning: .codeSigning
        case .emailProtection: .emailProtection
        case .timeStamping: .timeStamping
        case .ocspSigning: .ocspSigning
        }
    }

    public init?(objectIdentifier: ASN1ObjectIdentifier) {
        guard let purpose = Self.allCases.first(where: { $0.objectIdentifier == objectIdentifier }) else { return nil }
        self = purpose
    }
}
