import MatterCertificates
import MatterCrypto
import MatterDataModel

// Matter Core §6.2 Device Attestation, device side: a development chain of the device's own (a test PAA, a PAI
// and a per-device DAC, in the profiles of §6.2.2) and a Certification Declaration (§6.3) signed with the CSA's
// published test key, as development devices carry. A commissioner in development mode accepts it once it trusts
// the PAA (`matter-device attestation export`).
public struct DevelopmentAttestation: Sendable, Hashable {
    /// X.509 DER.
    public let paa: [UInt8]
    public let pai: [UInt8]
    public let dac: [UInt8]
    /// The DAC's raw P-256 private scalar.
    public let dacKey: [UInt8]
    /// The CMS-signed declaration (§6.3.2).
    public let certificationDeclaration: [UInt8]

    public init(paa: [UInt8], pai: [UInt8], dac: [UInt8], dacKey: [UInt8], certificationDeclaration: [UInt8]) {
        self.paa = paa
        self.pai = pai
        self.dac = dac
        self.dacKey = dacKey
        self.certificationDeclaration = certificationDeclaration
    }

    /// The CSA's test CD signing key, published as public test data in connectedhomeip
    /// (credentials/test/certification-declaration/Chip-Test-CD-Signing-Key.pem); its public half is
    /// `CertificationDeclarationSigningKey.test`.
    static let testDeclarationSigningKey: [UInt8] = [
        0xAE, 0xF3, 0x48, 0x41, 0x16, 0xE9, 0x48, 0x1E, 0xC5, 0x7B, 0xE0, 0x47, 0x2D, 0xF4, 0x1B, 0xF4,
        0x99, 0x06, 0x4E, 0x50, 0x24, 0xAD, 0x86, 0x9E, 0xCA, 0x5E, 0x88, 0x98, 0x02, 0xD4, 0x80, 0x75,
    ]

    /// A fresh chain and declaration for one product. The PAA names the vendor only (§6.2.2.5), the PAI the vendor
    /// and product, the DAC both; nothing expires (§6.2.2.2 allows notAfter 9999-12-31).
    public static func generate(
        vendorID: UInt16, productID: UInt16, deviceType: UInt32,
        random: some RandomSource = SystemRandom()
    ) throws(NodeError) -> DevelopmentAttestation {
        try Issuer.generate(vendorID: vendorID, productID: productID, random: random)
            .attest(deviceType: deviceType, random: random)
    }

    /// A development PAA and the PAI it signed, which issue a DAC and a declaration per device: the devices of one
    /// farm share them, so a commissioner trusts one PAA for all of them.
    public struct Issuer: Sendable, Hashable, Codable {
        /// X.509 DER.
        public let paa: [UInt8]
        public let pai: [UInt8]
        /// The PAI's raw P-256 private scalar.
        public let paiKey: [UInt8]
        public let vendorID: UInt16
        public let productID: UInt16

        public static func generate(
            vendorID: UInt16, productID: UInt16, random: some RandomSource = SystemRandom()
        ) throws(NodeError) -> Issuer {
            do {
                let paaKey = P256.PrivateKey(using: random), paiKey = P256.PrivateKey(using: random)
                let paaName = DistinguishedName([
                    .commonName("swift-home Development PAA"), .matterVendorID(vendorID),
                ])
                let paa = try DevelopmentAttestation.certificate(
                    subject: paaName, issuer: paaName, key: paaKey.publicKey.x963Representation,
                    constraints: BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 1),
                    usage: [.keyCertSign, .cRLSign], issuerKey: paaKey.publicKey.x963Representation, random: random
                )
                .signed(with: paaKey)
                let pai = try DevelopmentAttestation.certificate(
                    subject: Issuer.paiName(vendorID: vendorID, productID: productID), issuer: paaName,
                    key: paiKey.publicKey.x963Representation,
                    constraints: BasicConstraints(isCertificateAuthority: true, pathLengthConstraint: 0),
                    usage: [.keyCertSign, .cRLSign], issuerKey: paaKey.publicKey.x963Representation, random: random
                )
                .signed(with: paaKey)
                return Issuer(
                    paa: try paa.x509DER(), pai: try pai.x509DER(), paiKey: paiKey.rawRepresentation,
                    vendorID: vendorID, productID: productID)
            } catch {
                throw .invalidCredentials("cannot build the development attestation chain: \(error)")
            }
        }

        /// A new DAC under the PAI, and a declaration of `deviceType` for the issuer's product.
        public func attest(
            deviceType: UInt32, random: some RandomSource = SystemRandom()
        ) throws(NodeError) -> DevelopmentAttestation {
            do {
                let signer = try P256.PrivateKey(rawRepresentation: paiKey)
                let dacKey = P256.PrivateKey(using: random)
                let dacName = DistinguishedName([
                    .commonName("swift-home Development DAC"), .matterVendorID(vendorID), .matterProductID(productID),
                ])
                let dac = try DevelopmentAttestation.certificate(
                    subject: dacName, issuer: Issuer.paiName(vendorID: vendorID, productID: productID),
                    key: dacKey.publicKey.x963Representation,
                    constraints: BasicConstraints(isCertificateAuthority: false), usage: .digitalSignature,
                    issuerKey: signer.publicKey.x963Representation, random: random
                )
                .signed(with: signer)
                let declaration = CertificationDeclaration(
                    vendorID: vendorID, productIDs: [productID], deviceTypeID: deviceType,
                    certificateID: "ZIG0000000000000000",
                    securityLevel: 0, securityInformation: 0, versionNumber: 1,
                    certificationType: .developmentAndTest)
                let signed = try SignedCertificationDeclaration.encode(
                    declaration, signedBy: try P256.PrivateKey(rawRepresentation: testDeclarationSigningKey),
                    keyIdentifier: CertificationDeclarationSigningKey.test.keyIdentifier)
                return DevelopmentAttestation(
                    paa: paa, pai: pai, dac: try dac.x509DER(), dacKey: dacKey.rawRepresentation,
                    certificationDeclaration: signed)
            } catch {
                throw .invalidCredentials("cannot build the development attestation chain: \(error)")
            }
        }

        private static func paiName(vendorID: UInt16, productID: UInt16) -> DistinguishedName {
            DistinguishedName([
                .commonName("swift-home Development PAI"), .matterVendorID(vendorID), .matterProductID(productID),
            ])
        }
    }

    private static func certificate(
        subject: DistinguishedName, issuer: DistinguishedName, key: [UInt8], constraints: BasicConstraints,
        usage: KeyUsage, issuerKey: [UInt8], random: some RandomSource
    ) -> MatterCertificate {
        MatterCertificate(
            serialNumber: CertificateAuthority.randomSerialNumber(using: random), issuer: issuer, notBefore: 0,
            notAfter: 0,
            subject: subject, publicKey: key,
            extensions: [
                .basicConstraints(constraints), .keyUsage(usage),
                .subjectKeyIdentifier(CertificateAuthority.keyIdentifier(of: key)),
                .authorityKeyIdentifier(CertificateAuthority.keyIdentifier(of: issuerKey)),
            ],
            signature: [])
    }

    /// §11.17.6.2 AttestationResponse: the elements and the DAC's signature over them and the session's challenge.
    public func attestationResponse(
        nonce: [UInt8], challenge: [UInt8]
    ) throws(NodeError) -> (elements: [UInt8], signature: [UInt8]) {
        let elements = AttestationElements(
            certificationDeclaration: certificationDeclaration, attestationNonce: nonce, timestamp: 0
        ).tlvEncoded
        return (elements, try sign(elements + challenge))
    }

    /// §11.17.6.6 CSRResponse: the NOCSR elements for a new operational key and the DAC's signature.
    public func csrResponse(
        operationalKey: P256.PrivateKey, nonce: [UInt8], challenge: [UInt8]
    ) throws(NodeError) -> (elements: [UInt8], signature: [UInt8]) {
        let request: CertificateSigningRequest
        do {
            request = try CertificateSigningRequest(
                subject: DistinguishedName([.commonName("CSR")]), signingKey: operationalKey)
        } catch {
            throw .invalidCredentials("cannot build the CSR: \(error)")
        }
        let elements = NOCSRElements(csr: request.derEncoded, csrNonce: nonce).tlvEncoded
        return (elements, try sign(elements + challenge))
    }

    private func sign(_ message: [UInt8]) throws(NodeError) -> [UInt8] {
        do {
            return try P256.PrivateKey(rawRepresentation: dacKey).signature(for: message).rawRepresentation
        } catch {
            throw .invalidCredentials("the DAC key cannot sign: \(error)")
        }
    }
}
