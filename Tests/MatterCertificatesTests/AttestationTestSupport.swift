import MatterCertificates
import MatterCrypto
import MatterTLV

/// Builders shared by the attestation tests: a CMS envelope around a declaration and a device that signs
/// attestation elements with connectedhomeip's published DAC key.
enum AttestationTestSupport {
    /// The CSA's public test CD signing key (connectedhomeip credentials/test/certification-declaration/
    /// Chip-Test-CD-Signing-Key.pem, also in CircuitMatter's certificates.py), whose public half is built in.
    static let testDeclarationSigningKey = try! P256.PrivateKey(
        rawRepresentation: [UInt8](hex: "aef3484116e9481ec57be0472df41bf499064e5024ad869eca5e889802d48075"))

    /// RFC 5652 SignedData in the shape Matter Core §6.3.2 gives it, signed over the declaration's TLV.
    static func envelope(
        _ declaration: CertificationDeclaration, signedBy key: P256.PrivateKey, keyIdentifier: [UInt8]
    ) throws -> [UInt8] {
        let content = TLVWriter.encode(TLVElement(declaration.tlvValue()))
        let sha256 = DERNode.sequence([.objectIdentifier(.sha256)])
        let signerInfo = DERNode.sequence([
            .integer(3), .implicit(0, keyIdentifier), sha256, .sequence([.objectIdentifier(.ecdsaWithSHA256)]),
            .octetString(try key.signature(for: content).derRepresentation),
        ])
        let signedData = DERNode.sequence([
            .integer(3), .set([sha256]),
            .sequence([.objectIdentifier(.cmsData), .explicit(0, .octetString(content))]),
            .set([signerInfo]),
        ])
        return DERWriter.encode(.sequence([.objectIdentifier(.cmsSignedData), .explicit(0, signedData)]))
    }

    /// What connectedhomeip's test DAC FFF1/8000/0004 would answer to an AttestationRequest.
    struct CHIPDevice {
        var certificationDeclaration = CHIPAttestationVectors.certificationDeclaration
        var nonce = [UInt8](repeating: 0x5A, count: 32)
        var challenge = [UInt8](hex: "00112233445566778899aabbccddeeff")

        var elements: [UInt8] {
            AttestationElements(
                certificationDeclaration: certificationDeclaration, attestationNonce: nonce, timestamp: 0
            ).tlvEncoded
        }

        func signature(over elements: [UInt8]) throws -> [UInt8] {
            try P256.PrivateKey(rawRepresentation: CHIPAttestationVectors.dacPrivateKey).signature(
                for: elements + challenge
            ).rawRepresentation
        }
    }

    /// 2024-01-01T00:00:00Z, inside the validity of connectedhomeip's chain.
    static let january2024: Int64 = 1_704_067_200
    /// 2025-01-01T00:00:00Z, inside the validity of CircuitMatter's chain (from 2024-10-17).
    static let january2025: Int64 = 1_735_689_600

    static func store(_ certificates: [UInt8]...) throws -> PAATrustStore {
        PAATrustStore(certificates: try certificates.map { try X509Certificate(derEncoded: $0) })
    }
}
